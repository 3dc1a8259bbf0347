import { useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { setMentorPresence } from '@/api/endpoints/mentors/mentors';
import { acceptInstantSession, declineInstantSession } from '@/api/endpoints/wallet/wallet';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-fetch';
import { MENTOR_PROFILE_KEY } from '@/lib/auth';
import type { Mentor } from '@/lib/catalogue';
import { formatUsd } from '@/lib/money';
import { useRealtimeEvent, type ServerEvents } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { useUpdateMentorProfile } from './api';

type InstantSessionRequested = ServerEvents['instantSessionRequested'];

/** A short chime for a new request (Web Audio; silent where the browser allows no sound yet). */
function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // No sound: the popup is still shown.
  }
}

/** The mentor's instant readings: the online switch, the per-minute settings and the request popup. */
export function ReadingsNow({ mentor }: { mentor: Mentor }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const update = useUpdateMentorProfile();
  const [rate, setRate] = useState(mentor.perMinuteRate ?? '');
  const [modes, setModes] = useState<string[]>(mentor.instantModes);
  const [problem, setProblem] = useState<string | null>(null);
  const [requests, setRequests] = useState<InstantSessionRequested[]>([]);
  const now = useNow(1000);
  const online = mentor.presence !== 'offline';

  useRealtimeEvent('instantSessionRequested', (r) => {
    setRequests((list) => [...list.filter((x) => x.id !== r.id), r]);
    chime();
  });
  useRealtimeEvent('instantSessionChanged', (r) => {
    setRequests((list) => list.filter((x) => x.id !== r.id));
    void client.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
  });

  const toggle = async (checked: boolean) => {
    setProblem(null);
    try {
      await setMentorPresence({ status: checked ? 'available' : 'offline' });
    } catch (error) {
      setProblem(errorMessage(error, 'Your status could not be changed.'));
    }
    void client.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
  };
  const save = () => {
    setProblem(null);
    update.mutate(
      { perMinuteRate: rate.trim() === '' ? '0.00' : rate.trim(), instantModes: modes },
      { onError: (error) => setProblem(errorMessage(error, 'The settings could not be saved.')) },
    );
  };
  const answer = async (id: string, accept: boolean) => {
    setRequests((list) => list.filter((x) => x.id !== id));
    try {
      if (accept) {
        await acceptInstantSession(id);
        void navigate(`/reading/${id}`);
      } else {
        await declineInstantSession(id);
      }
    } catch (error) {
      setProblem(errorMessage(error, 'The request is no longer waiting.'));
    }
  };
  const waiting = requests.filter((r) => Date.parse(r.expiresAt) > now.getTime());

  return (
    <Card className="mt-6 space-y-4 p-6" aria-label="Readings now">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Readings now</h2>
          <p className="text-sm text-slate-600">Take chats and calls on demand, paid by the minute.</p>
        </div>
        <div className="flex items-center gap-3">
          <Label htmlFor="online-switch">
            {mentor.presence === 'busy' ? 'In a reading' : online ? 'Online' : 'Offline'}
          </Label>
          <Switch
            id="online-switch"
            checked={online}
            disabled={mentor.presence === 'busy' || !mentor.perMinuteRate}
            onCheckedChange={(checked) => void toggle(checked)}
          />
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <FormField
          label="Per-minute rate"
          name="perMinuteRate"
          inputMode="decimal"
          placeholder="1.99"
          hint="0.99 to 20.00; empty turns readings off"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
        />
        {(['chat', 'video'] as const).map((mode) => (
          <label key={mode} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={modes.includes(mode)}
              onChange={(e) => setModes(e.target.checked ? [...modes, mode] : modes.filter((m) => m !== mode))}
            />
            {mode === 'chat' ? 'Chat' : 'Video call'}
          </label>
        ))}
        <Button onClick={save} disabled={update.isPending}>
          Save reading settings
        </Button>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-rose-700">
          {problem}
        </p>
      )}
      {waiting.map((r) => (
        <div
          key={r.id}
          role="alertdialog"
          aria-label={`Reading request from ${r.seekerName}`}
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 p-4"
        >
          <p className="flex items-center gap-2 text-slate-900">
            <Bell aria-hidden="true" className="h-4 w-4" />
            {r.seekerName} asks for a {r.mode === 'video' ? 'call' : 'chat'} reading at {formatUsd(r.perMinuteRate)}/min
            · {Math.max(0, Math.ceil((Date.parse(r.expiresAt) - now.getTime()) / 1000))} s
          </p>
          <div className="flex gap-2">
            <Button onClick={() => void answer(r.id, true)}>Accept</Button>
            <Button variant="outline" onClick={() => void answer(r.id, false)}>
              Decline
            </Button>
          </div>
        </div>
      ))}
    </Card>
  );
}
