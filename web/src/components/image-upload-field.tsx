import { Camera } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { uploadProfileImage } from '@/api/endpoints/profiles/profiles';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { validateImageFile } from '@/lib/images';

export const IMAGE_UPLOAD_FAILED = 'Failed to upload image';

type Props = {
  label: string;
  /** The uploaded image's address (`/uploads/...`), or '' for none. */
  value: string;
  onChange: (url: string) => void;
  error?: string;
};

/**
 * A profile image chosen from the device and uploaded at once (POST /api/user/profile-image); the
 * form keeps the address the upload answered. Images are never linked from other sites.
 */
export function ImageUploadField({ label, value, onChange, error }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useMutation({ mutationFn: (file: File) => uploadProfileImage({ profileImage: file }) });

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Cleared so choosing the same file again still fires a change.
    e.target.value = '';
    if (!file) return;
    const invalid = validateImageFile(file);
    setProblem(invalid);
    if (invalid) return;
    upload.mutate(file, {
      onSuccess: ({ imageUrl }) => onChange(imageUrl),
      onError: (err) => setProblem(errorMessage(err, IMAGE_UPLOAD_FAILED)),
    });
  };

  const shown = problem ?? error;
  return (
    <div className="space-y-2">
      <span className="text-sm font-medium text-slate-700">{label}</span>
      <div className="flex items-center gap-4">
        {value && <img src={value} alt="" className="h-16 w-16 rounded-full object-cover" />}
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          aria-label={label}
          aria-describedby={hintId}
          className="sr-only"
          tabIndex={-1}
          onChange={choose}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={upload.isPending}
          aria-describedby={hintId}
          onClick={() => inputRef.current?.click()}
        >
          <Camera aria-hidden="true" className="h-4 w-4" />
          {upload.isPending ? 'Uploading...' : value ? 'Change Photo' : 'Upload Photo'}
        </Button>
        {value && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange('')}>
            Remove
          </Button>
        )}
      </div>
      <p id={hintId} className="text-xs text-slate-500">
        JPG/PNG, up to 5MB
      </p>
      {shown && (
        <p role="alert" className="text-sm text-rose-600">
          {shown}
        </p>
      )}
    </div>
  );
}
