/**
 * The rate-limit subject of an anonymous caller: its IP address, IPv6 reduced to its /64 (one host can hold a
 * whole /64 and rotate through it), IPv4-mapped IPv6 read as IPv4. `X-Forwarded-For` is trusted only when the
 * operator says a proxy sets it (TRUST_PROXY), since any client can send it.
 */
import { isIPv4, isIPv6 } from 'node:net';

function expandIPv6(a: string): string[] | null {
  const [head, tail] = a.split('::');
  if (a.split('::').length > 2) return null;
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  // An embedded dotted IPv4 tail (::ffff:1.2.3.4) takes two groups.
  const last = (tail === undefined ? h : t).at(-1);
  let v4: string[] = [];
  if (last && isIPv4(last)) {
    const o = last.split('.').map(Number);
    v4 = [((o[0]! << 8) | o[1]!).toString(16), ((o[2]! << 8) | o[3]!).toString(16)];
    if (tail === undefined) h.pop();
    else t.pop();
  }
  const fill = 8 - h.length - t.length - v4.length;
  if (tail === undefined && fill !== 0) return null;
  const groups = [...h, ...Array<string>(Math.max(0, fill)).fill('0'), ...t, ...v4];
  return groups.length === 8 ? groups.map((g) => parseInt(g || '0', 16).toString(16)) : null;
}

/** The bucket of one address: IPv4 as is, IPv6 as its /64 prefix (`2001:db8:1:2::/64`). */
export function ipBucket(addr: string): string {
  const a = addr.trim();
  if (isIPv4(a)) return a;
  if (!isIPv6(a)) return a;
  const g = expandIPv6(a);
  if (g === null) return a;
  if (g.slice(0, 5).every((x) => x === '0') && g[5] === 'ffff') {
    const hi = parseInt(g[6]!, 16);
    const lo = parseInt(g[7]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  if (g.slice(0, 7).every((x) => x === '0')) return `::${g[7]}`;
  return `${g.slice(0, 4).join(':')}::/64`;
}

/** The client address of a request: the first `X-Forwarded-For` hop when trusted, else the peer. */
export function clientAddress(headers: Readonly<Record<string, string>>, peer: string, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = headers['x-forwarded-for'];
    if (xff) {
      const first = xff.split(',')[0]!.trim();
      if (isIPv4(first) || isIPv6(first)) return first;
    }
  }
  return peer;
}
