import { Plus } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { ServiceFields } from '@/components/service-fields';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import type { Service } from '@/lib/catalogue';
import {
  EMPTY_SERVICE,
  hasErrors,
  serviceBody,
  validateService,
  type Errors,
  type ServiceField,
  type ServiceForm,
} from '@/lib/mentor-forms';
import { servicePriceText } from '@/lib/money';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { serviceLabel } from '@/lib/services';
import { useCreateServices } from './api';
import { SERVICE_FAILED } from './steps';
import { BackButton, DraftState, ErrorCard, StepCard } from './step-parts';

type Draft = { key: number; form: ServiceForm; errors: Errors<ServiceField>; created?: Service };

type ServicesProps = { mentorId: string; existing: readonly Service[]; onBack: () => void; onDone: () => void };

/** The services made so far (after Back, or for a mentor who left here) and forms for new ones. */
export function ServicesStep({ mentorId, existing, onBack, onDone }: ServicesProps) {
  const nextKey = useRef(existing.length + 1);
  const [drafts, setDrafts] = useState<Draft[]>(() => {
    const made = existing
      .filter((s) => s.isActive)
      .map((service, i) => ({ key: i + 1, form: EMPTY_SERVICE, errors: {}, created: service }));
    return made.length > 0 ? made : [{ key: 0, form: EMPTY_SERVICE, errors: {} }];
  });
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateServices();

  const update = (key: number, patch: Partial<ServiceForm>) =>
    setDrafts((list) =>
      list.map((d) => {
        if (d.key !== key) return d;
        const form = { ...d.form, ...patch };
        return {
          ...d,
          form,
          errors: hasErrors(d.errors) ? validateService(form, { requireDuration: true }) : d.errors,
        };
      }),
    );

  const add = () => setDrafts((list) => [...list, { key: nextKey.current++, form: EMPTY_SERVICE, errors: {} }]);
  const remove = (key: number) => setDrafts((list) => list.filter((d) => d.key !== key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = drafts.map((d) =>
      d.created ? d : { ...d, errors: validateService(d.form, { requireDuration: true }) },
    );
    setDrafts(checked);
    if (checked.some((d) => hasErrors(d.errors))) return;
    const pending = checked.filter((d) => !d.created);
    if (pending.length === 0) return onDone();
    create.mutate(
      pending.map((d) => {
        const body = serviceBody(d.form);
        return {
          title: body.title,
          description: body.description,
          serviceType: body.serviceType,
          price: body.price,
          duration: body.duration,
          mentorId,
        };
      }),
      {
        onSuccess: (outcomes) => {
          const byKey = new Map(pending.map((d, i) => [d.key, outcomes[i]]));
          setDrafts((list) =>
            list.map((d) => {
              const outcome = byKey.get(d.key);
              return outcome?.ok ? { ...d, created: outcome.service } : d;
            }),
          );
          const failed = outcomes.find((o) => !o.ok);
          if (!failed) return onDone();
          if (errorStatus(failed.error) === 401) return hardNavigate(LOGIN_URL);
          setFailure(errorMessage(failed.error, SERVICE_FAILED));
        },
        onError: (error) => setFailure(errorMessage(error, SERVICE_FAILED)),
      },
    );
  };

  return (
    <StepCard
      title="Your services"
      description="Add at least one service seekers can book. You can add more and change them later in your dashboard."
    >
      <form noValidate onSubmit={submit} className="space-y-6">
        {failure && <ErrorCard message={SERVICE_FAILED} detail={failure} />}
        <ol className="space-y-5">
          {drafts.map((draft, index) => (
            <li key={draft.key} className="rounded-2xl border border-slate-200 p-4 sm:p-5">
              <div className="mb-4 flex items-center justify-between gap-3">
                <h3 className="font-semibold text-slate-900">Service {index + 1}</h3>
                <DraftState
                  done={draft.created ? 'Created' : null}
                  onRemove={drafts.length > 1 ? () => remove(draft.key) : undefined}
                  removeLabel={`Remove service ${index + 1}`}
                  disabled={create.isPending}
                />
              </div>
              {draft.created ? (
                <p className="text-sm text-slate-600">
                  {draft.created.title} · {serviceLabel(draft.created.serviceType)} ·{' '}
                  {servicePriceText(draft.created.price)} · {draft.created.duration} minutes
                </p>
              ) : (
                <ServiceFields
                  idPrefix={`service-${draft.key}`}
                  value={draft.form}
                  errors={draft.errors}
                  onChange={(patch) => update(draft.key, patch)}
                  disabled={create.isPending}
                />
              )}
            </li>
          ))}
        </ol>
        <Button variant="outline" onClick={add} disabled={create.isPending}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add Another Service
        </Button>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-between">
          <BackButton onClick={onBack} disabled={create.isPending} />
          <Button type="submit" variant="gradient" size="lg" disabled={create.isPending}>
            {create.isPending ? 'Creating Services...' : 'Continue'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 3: availability ------------------------------------------------------------------
