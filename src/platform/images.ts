/**
 * The image library (sharp, native code), loaded on the first image handled instead of at start: most
 * requests never touch an image, and loading it is a noticeable part of a start.
 */
import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

export function loadSharp(): Promise<typeof SharpModule> {
  return (loading ??= import('sharp').then((m) => m.default));
}
