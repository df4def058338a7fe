/** Reading /proc/PID/status (Linux), shared by the benches that measure a process's memory. */

/** A `Field:  N kB` line of a /proc status text, in KiB (0 when the field is missing). */
export function statusKib(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match === null ? 0 : Number(match[1]);
}
