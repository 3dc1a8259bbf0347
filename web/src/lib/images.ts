/** Profile images are at most 5 MB. */
export const MAX_PROFILE_IMAGE_BYTES = 5 * 1024 * 1024;

// The client-side checks of an image chosen for upload (profile and mentor profile alike).

export const IMAGE_TOO_LARGE = 'Image file must be smaller than 5MB';
export const NOT_AN_IMAGE = 'Only image files are allowed';

/** A chosen image: an image type, at most 5 MB. */
export function validateImageFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return NOT_AN_IMAGE;
  if (file.size > MAX_PROFILE_IMAGE_BYTES) return IMAGE_TOO_LARGE;
  return null;
}

/** The address of one of our uploads exactly as the upload answered it (domain/src/uploads.rs). */
const OWN_UPLOAD = /^\/uploads\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

/** Profile images are our own uploads only: an address elsewhere would tell that host who views it. */
export function isOwnUpload(value: string): boolean {
  return OWN_UPLOAD.test(value);
}
