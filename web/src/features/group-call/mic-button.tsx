import { Mic, MicOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { micButtonState } from './mute-state';

type Props = { micOn: boolean; mutedByMentor: boolean; onToggle: () => void };

/**
 * The participant's own microphone button: on or off, or, while the mentor keeps them muted,
 * off with 'Muted by the mentor' written beside it and not pressable.
 */
export function MicButton({ micOn, mutedByMentor, onToggle }: Props) {
  const { label, disabled, showsOn } = micButtonState({ micOn, mutedByMentor });
  return (
    <Tooltip content={mutedByMentor ? label : null} wrapDisabled={disabled}>
      <Button
        variant="outline"
        onClick={onToggle}
        disabled={disabled}
        aria-pressed={!showsOn}
        aria-label={label}
        data-testid="mic-button"
      >
        {showsOn ? <Mic aria-hidden="true" className="h-4 w-4" /> : <MicOff aria-hidden="true" className="h-4 w-4" />}
        {mutedByMentor && (
          <span aria-hidden="true" className="text-xs">
            {label}
          </span>
        )}
      </Button>
    </Tooltip>
  );
}
