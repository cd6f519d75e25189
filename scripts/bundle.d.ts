/** Bundles `entry` (a path from the repository root) into `outfile`: see bundle.js. */
export function bundle(entry: string, outfile: string): Promise<void>;
