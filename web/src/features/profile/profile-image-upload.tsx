import { Camera } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { useUploadProfileImage } from './api';
import { IMAGE_UPLOADED, IMAGE_UPLOAD_FAILED, validateImageFile } from './validation';

/** Choose a photo: checked here (image, at most 5MB), then uploaded at once. */
export function ProfileImageUpload() {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadProfileImage();

  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Clear the input so choosing the same file again still fires a change.
    e.target.value = '';
    if (!file) return;
    const invalid = validateImageFile(file);
    setProblem(invalid);
    if (invalid) return;
    upload.mutate(file, {
      onSuccess: () => toast.success(IMAGE_UPLOADED),
      onError: (error) => toast.error(IMAGE_UPLOAD_FAILED, { description: errorMessage(error, '') || undefined }),
    });
  };

  return (
    <div className="flex flex-col items-center gap-2">
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        aria-label="Profile image"
        aria-describedby={hintId}
        className="sr-only"
        tabIndex={-1}
        onChange={onChange}
      />
      <Button
        variant="outline"
        size="sm"
        disabled={upload.isPending}
        aria-describedby={hintId}
        onClick={() => inputRef.current?.click()}
      >
        <Camera aria-hidden="true" className="h-4 w-4" />
        {upload.isPending ? 'Uploading...' : 'Upload Photo'}
      </Button>
      <p id={hintId} className="text-xs text-slate-500">
        JPG/PNG, up to 5MB
      </p>
      {problem && (
        <p role="alert" className="text-center text-sm text-rose-600">
          {problem}
        </p>
      )}
    </div>
  );
}
