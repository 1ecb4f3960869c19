/** Starts the HTTP service. */
export async function serve(_argv: string[]): Promise<void> {
  throw new Error('The HTTP service is not yet part of this version of docmill.');
}
