/**
 * Multipart bodies of `/v1/images/edits` and `/v1/images/variations`, read into plain data.
 * The platform's `FormData` parses the multipart; this only awaits each file's bytes, so that
 * `decodeImageRequest` can stay synchronous and pure.
 */

/** One uploaded file, as bytes. `mediaType` is what the client declared (may be empty). */
export interface ImageFormFile {
  data: Uint8Array;
  mediaType: string;
  filename?: string;
}

/** Everything a multipart image request carried. */
export interface ImageFormFields {
  /** Text fields by name; a repeated name keeps its last value. */
  fields: Record<string, string>;
  /** Files sent as `image` or `image[]` (the SDK's name for several), in form order. */
  images: ImageFormFile[];
  /** Files under any other name (`mask`, …), in form order. */
  files: Record<string, ImageFormFile[]>;
}

const IMAGE_KEYS = new Set(['image', 'image[]']);

/** Reads every entry of a parsed multipart form; file bytes stay binary. */
export async function readImageForm(form: FormData): Promise<ImageFormFields> {
  const out: ImageFormFields = { fields: {}, images: [], files: {} };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      out.fields[name] = value;
      continue;
    }
    const file: ImageFormFile = {
      data: new Uint8Array(await value.arrayBuffer()),
      mediaType: value.type,
      ...(value.name ? { filename: value.name } : {}),
    };
    if (IMAGE_KEYS.has(name)) out.images.push(file);
    else (out.files[name] ??= []).push(file);
  }
  return out;
}

/** Whether a decoded body is the result of `readImageForm` (the edit / variation input). */
export function isImageFormFields(body: unknown): body is ImageFormFields {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Partial<ImageFormFields>;
  return (
    typeof b.fields === 'object' && b.fields !== null && Array.isArray(b.images) &&
    typeof b.files === 'object' && b.files !== null
  );
}
