/** Resident memory of a process as Linux reports it in `/proc/<pid>/status`, in MiB. */
import { readFileSync } from 'node:fs';

/** VmRSS (resident now) and VmHWM (the peak of VmRSS so far) in MiB; null when the process is gone. */
export interface ProcMemory {
  readonly rssMb: number;
  readonly hwmMb: number;
}

/** Reads `/proc/<pid>/status` (default: this process). */
export function procMemory(pid: number | 'self' = 'self'): ProcMemory | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}
