/** CPU time of a process as Linux reports it in `/proc/<pid>/stat`. */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ; 100 on Linux everywhere Node runs). */
const TICKS_PER_S = 100;

/** User + system CPU time of `pid` (all its threads) in ms; null when the process is gone. */
export function procCpuMs(pid: number): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): state is
  // field 3, utime 14 and stime 15.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
}
