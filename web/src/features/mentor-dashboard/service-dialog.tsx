import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ServiceFields } from '@/components/service-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-fetch';
import type { Service } from '@/lib/catalogue';
import {
  changedServiceFields,
  EMPTY_SERVICE,
  hasErrors,
  serviceBody,
  serviceToForm,
  validateService,
  type Errors,
  type ServiceField,
  type ServiceForm,
} from '@/lib/mentor-forms';
import { useCreateService, useUpdateService } from './api';

export const CREATE_SERVICE_FAILED = 'Failed to create service';
export const UPDATE_SERVICE_FAILED = 'Failed to update service';

function useServiceForm(initial: ServiceForm) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Errors<ServiceField>>({});
  const [checked, setChecked] = useState(false);
  const change = (patch: Partial<ServiceForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (checked) setErrors(validateService(next));
  };
  /** Validates; true when the form can be sent. */
  const check = () => {
    setChecked(true);
    const found = validateService(form);
    setErrors(found);
    return !hasErrors(found);
  };
  return { form, errors, change, check };
}

type CreateProps = { open: boolean; onOpenChange: (open: boolean) => void; mentorId: string };

/** The 'Create New Service' dialog (mounted afresh each time it opens). */
export function CreateServiceDialog({ open, onOpenChange, mentorId }: CreateProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create New Service"
      description="Describe a session seekers can book with you."
      className="max-w-2xl"
    >
      {open && <CreateServiceForm mentorId={mentorId} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function CreateServiceForm({ mentorId, onDone }: { mentorId: string; onDone: () => void }) {
  const { form, errors, change, check } = useServiceForm(EMPTY_SERVICE);
  const create = useCreateService();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    create.mutate(
      { ...serviceBody(form), mentorId },
      {
        onSuccess: (service) => {
          toast.success('Service created', { description: `${service.title} is now offered on your profile.` });
          onDone();
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {create.isError && <Alert variant="error">{errorMessage(create.error, CREATE_SERVICE_FAILED)}</Alert>}
      <ServiceFields
        idPrefix="new-service"
        extras
        value={form}
        errors={errors}
        onChange={change}
        disabled={create.isPending}
      />
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Service'}
        </Button>
      </div>
    </form>
  );
}

type EditProps = { service: Service | null; onClose: () => void };

/** The 'Edit Service' dialog; sends only what changed, including the Active switch. */
export function EditServiceDialog({ service, onClose }: EditProps) {
  return (
    <Dialog
      open={!!service}
      onOpenChange={(open) => !open && onClose()}
      title="Edit Service"
      description="Changes show on your public profile straight away."
      className="max-w-2xl"
    >
      {service && <EditServiceForm key={service.id} service={service} onDone={onClose} />}
    </Dialog>
  );
}

function EditServiceForm({ service, onDone }: { service: Service; onDone: () => void }) {
  const initial = serviceToForm(service);
  const { form, errors, change, check } = useServiceForm(initial);
  const [isActive, setIsActive] = useState(service.isActive);
  const [nothing, setNothing] = useState(false);
  const update = useUpdateService();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNothing(false);
    if (!check()) return;
    const changes = changedServiceFields(
      { ...serviceBody(initial), isActive: service.isActive },
      { ...serviceBody(form), isActive },
    );
    if (Object.keys(changes).length === 0) {
      setNothing(true);
      return;
    }
    update.mutate(
      { id: service.id, changes },
      {
        onSuccess: () => {
          toast.success('Service updated');
          onDone();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {update.isError && <Alert variant="error">{errorMessage(update.error, UPDATE_SERVICE_FAILED)}</Alert>}
      {nothing && <Alert variant="info">No changes to save</Alert>}
      <ServiceFields
        idPrefix={`edit-${service.id}`}
        extras
        value={form}
        errors={errors}
        onChange={change}
        disabled={update.isPending}
      />
      <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-3">
        <div>
          <Label htmlFor={`active-${service.id}`}>Active</Label>
          <p className="text-xs text-slate-500">Inactive services are hidden from seekers and cannot be booked.</p>
        </div>
        <Switch
          id={`active-${service.id}`}
          checked={isActive}
          onCheckedChange={setIsActive}
          disabled={update.isPending}
        />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
