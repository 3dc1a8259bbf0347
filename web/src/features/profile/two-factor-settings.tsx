import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { disableTwoFactor, enableTwoFactor, newRecoveryCodes, setupTwoFactor } from '@/api/endpoints/accounts/accounts';
import type { TwoFactorSetupView } from '@/api/model';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-fetch';
import { AUTH_USER_KEY } from '@/lib/auth';
import { profileKeys } from './api';

// Two-factor sign-in: POST /api/user/two-factor/setup|enable|disable|recovery-codes.

export const RECOVERY_CODES_FILE = 'mystic-mentors-recovery-codes.txt';

/** The recovery codes, shown once, to copy or download. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = RECOVERY_CODES_FILE;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-3">
      <Alert variant="info">
        <p className="font-medium">Save your recovery codes</p>
        <p>Each code signs you in once if you lose your phone. They are shown only now.</p>
      </Alert>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => toast.success('Recovery codes copied'),
              () => toast.error('Could not copy; download them instead'),
            )
          }
        >
          Copy
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          Download
        </Button>
        <Button size="sm" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </div>
  );
}

/** Turning two-factor sign-in on (QR code, first code, recovery codes) and off. */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TwoFactorSetupView | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const refreshUser = () => {
    void queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY });
    void queryClient.invalidateQueries({ queryKey: profileKeys.own() });
  };
  const fail = (e: unknown) => setProblem(errorMessage(e, 'Something went wrong'));

  const start = useMutation({ mutationFn: () => setupTwoFactor(), onSuccess: setSetup, onError: fail });
  const enable = useMutation({
    mutationFn: (c: string) => enableTwoFactor({ code: c }),
    onSuccess: (r) => {
      setSetup(null);
      setCode('');
      setCodes(r.recoveryCodes);
      refreshUser();
    },
    onError: fail,
  });
  const regenerate = useMutation({
    mutationFn: (c: string) => newRecoveryCodes({ code: c }),
    onSuccess: (r) => {
      setCode('');
      setCodes(r.recoveryCodes);
    },
    onError: fail,
  });
  const disable = useMutation({
    mutationFn: () => disableTwoFactor({ password, code: code.trim() }),
    onSuccess: (r) => {
      toast.success(r.message);
      setCode('');
      setPassword('');
      refreshUser();
    },
    onError: fail,
  });

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;

  const problemAlert = problem && (
    <Alert variant="error">
      <p>{problem}</p>
    </Alert>
  );

  if (setup) {
    const onEnable = (e: FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      setProblem(null);
      enable.mutate(code.replace(/\s+/g, ''));
    };
    return (
      <form onSubmit={onEnable} className="space-y-3" aria-label="Set up two-factor sign-in">
        <p className="text-sm text-slate-600">
          Scan this QR code with an authenticator app, then enter the 6-digit code it shows.
        </p>
        <img
          alt="QR code for your authenticator app"
          className="h-48 w-48"
          src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
        />
        <p className="text-xs text-slate-600">
          Or type this key:{' '}
          <code data-testid="two-factor-secret" className="break-all font-mono">
            {setup.secret}
          </code>
        </p>
        {problemAlert}
        <FormField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={enable.isPending}>
            Turn on
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setSetup(null)}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }

  if (!enabled) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-600">
          Two-factor sign-in is off. Turn it on to ask for a code from your phone as well as your password.
        </p>
        {problemAlert}
        <Button
          size="sm"
          disabled={start.isPending}
          onClick={() => {
            setProblem(null);
            start.mutate();
          }}
        >
          Set up two-factor sign-in
        </Button>
      </div>
    );
  }

  const onDisable = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setProblem(null);
    disable.mutate();
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-emerald-700">Two-factor sign-in is on.</p>
      {problemAlert}
      <form onSubmit={onDisable} className="space-y-3" aria-label="Two-factor sign-in settings">
        <FormField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <FormField
          label="Password (to turn it off)"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={regenerate.isPending || !code.trim()}
            onClick={() => {
              setProblem(null);
              regenerate.mutate(code.replace(/\s+/g, ''));
            }}
          >
            New recovery codes
          </Button>
          <Button type="submit" variant="outline" size="sm" disabled={disable.isPending || !password}>
            Turn off
          </Button>
        </div>
      </form>
    </div>
  );
}
