// Paths into a parsed value, for tests that compare where two readers locate them.

/** Every path into `value`, and beside each map and list one that is not there (a finding's "is not set here"). */
export function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) {
    value.forEach((item, i) => pathsOf(item, [...prefix, i], out));
    out.push([...prefix, value.length]);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
    out.push([...prefix, 'absent', 'deeper']);
  }
  return out;
}
