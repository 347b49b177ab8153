/**
 * The peer address of a request, copied from uWS as raw bytes (cheap) and turned into text only when something
 * reads it (anonymous rate limiting). Formatting it on every request (`getRemoteAddressAsText` + UTF-8 decode) was
 * the largest single cost of copying a request (bench/README.md, HTTP section).
 */

/** Text of a 4-byte IPv4 or 16-byte IPv6 address; an IPv4-mapped IPv6 address reads as IPv4. */
export function ipText(raw: Uint8Array): string {
  if (raw.length === 4) return `${raw[0]}.${raw[1]}.${raw[2]}.${raw[3]}`;
  if (raw.length !== 16) return '';
  let mapped = raw[10] === 0xff && raw[11] === 0xff;
  for (let i = 0; i < 10 && mapped; i++) if (raw[i] !== 0) mapped = false;
  if (mapped) return `${raw[12]}.${raw[13]}.${raw[14]}.${raw[15]}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((raw[i]! << 8) | raw[i + 1]!).toString(16));
  return groups.join(':');
}

/** A copy of the raw address bytes uWS hands out (valid only during the call that returned them). */
export function copyAddress(buf: ArrayBuffer): Uint8Array {
  return new Uint8Array(buf).slice();
}
