/** A page image as raw pixels, the form every clean-up step of src/ocr/ takes and gives. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}
