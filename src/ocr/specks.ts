/**
 * Pages strewn with specks (salt-and-pepper noise: a photocopy of a photocopy, a dirty fax line) are
 * smoothed by a 3 × 3 median before reading. tesseract takes the specks for marks beside the letters:
 * on the generated scans with 1% of pixels flipped to black or white, CER rose from 0-0.1% to 1.0%
 * (4%: 2.6-2.9%), and a median brought it back to 0-0.2%. On a clean page the median costs thin
 * strokes (0.68% instead of 0.00% on the same page), so it is kept for pages that need it.
 *
 * A speck is a pixel darker than half the ink threshold with no neighbour of eight under the threshold:
 * the pixels of a letter, however small, touch each other, and sensor noise or JPEG artefacts rarely
 * reach that dark alone. Clean scans (the generated ones with their noise, grain and shaded fills; the
 * corpus scans, print and typewriter, 150-300 dpi) have at most 0.003% of their pixels so; the same
 * pages with 1% of pixels flipped (JPEG-compressed after) 0.38-0.46%.
 */

/** Share of the pixels looked at that are specks, from which a page counts as speckled. */
const SPECKLED_SHARE = 0.0005;

/** Whether the page is strewn with specks (see the file comment). Every other row is looked at. */
export function speckled(grey: Uint8Array, width: number, height: number, level: number): boolean {
  const dark = level / 2;
  let specks = 0;
  let seen = 0;
  for (let y = 1; y < height - 1; y += 2) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      seen++;
      const i = row + x;
      if (grey[i]! >= dark) continue;
      const up = i - width;
      const down = i + width;
      if (grey[up - 1]! < level || grey[up]! < level || grey[up + 1]! < level || grey[i - 1]! < level) continue;
      if (grey[i + 1]! < level || grey[down - 1]! < level || grey[down]! < level || grey[down + 1]! < level) continue;
      specks++;
    }
  }
  return seen > 0 && specks > SPECKLED_SHARE * seen;
}
