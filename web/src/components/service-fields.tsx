import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import {
  DEFAULT_GROUP_SIZE,
  GROUP_MAX,
  GROUP_MIN,
  type Errors,
  type ServiceField,
  type ServiceForm,
} from '@/lib/mentor-forms';
import { SERVICE_LABELS, SERVICE_TYPES } from '@/lib/services';

type ServiceFieldsProps = {
  value: ServiceForm;
  onChange: (patch: Partial<ServiceForm>) => void;
  errors: Errors<ServiceField>;
  /** The dashboard's extras: the 'free' checkbox and the group toggle with its size. */
  extras?: boolean;
  disabled?: boolean;
  /** Makes the ids unique when several forms share a page (the wizard's services). */
  idPrefix: string;
};

/** The fields of a service: title, description, type, price, duration (and group options). */
export function ServiceFields({
  value,
  onChange,
  errors,
  extras = false,
  disabled = false,
  idPrefix,
}: ServiceFieldsProps) {
  const free = extras && value.free;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FormField
          id={`${idPrefix}-title`}
          label="Service Title"
          value={value.title}
          onChange={(e) => onChange({ title: e.target.value })}
          error={errors.title}
          placeholder="e.g. Birth Chart Reading"
          disabled={disabled}
        />
      </div>
      <div className="sm:col-span-2">
        <Field label="Description" error={errors.description}>
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              value={value.description}
              onChange={(e) => onChange({ description: e.target.value })}
              placeholder="What happens in the session and who it is for"
              disabled={disabled}
            />
          )}
        </Field>
      </div>
      <Field label="Service Type" error={errors.serviceType}>
        {(control) => (
          <Select
            {...control}
            value={value.serviceType}
            onChange={(e) => onChange({ serviceType: e.target.value as ServiceForm['serviceType'] })}
            disabled={disabled}
          >
            <option value="">Select a service type</option>
            {SERVICE_TYPES.map((type) => (
              <option key={type} value={type}>
                {SERVICE_LABELS[type]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormField
        id={`${idPrefix}-duration`}
        label="Duration (minutes)"
        type="number"
        inputMode="numeric"
        min={15}
        max={480}
        step={15}
        value={value.duration}
        onChange={(e) => onChange({ duration: e.target.value })}
        error={errors.duration}
        disabled={disabled}
      />
      <div className="space-y-2">
        <FormField
          id={`${idPrefix}-price`}
          label="Price (USD)"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={value.price}
          onChange={(e) => onChange({ price: e.target.value })}
          error={errors.price}
          placeholder="50.00"
          disabled={disabled || free}
        />
        {extras && (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-indigo-500"
              checked={free}
              disabled={disabled}
              onChange={(e) => onChange({ free: e.target.checked, price: e.target.checked ? '0.00' : '' })}
            />
            This is a free service
          </label>
        )}
      </div>
      {extras && (
        <div className="space-y-3 sm:col-span-2">
          <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-3">
            <div>
              <Label htmlFor={`${idPrefix}-group`}>Group session</Label>
              <p className="text-xs text-slate-500">Several seekers join one session together.</p>
            </div>
            <Switch
              id={`${idPrefix}-group`}
              checked={value.isGroupSession}
              disabled={disabled}
              onCheckedChange={(checked) =>
                onChange({
                  isGroupSession: checked,
                  maxParticipants: value.maxParticipants || String(DEFAULT_GROUP_SIZE),
                })
              }
            />
          </div>
          {value.isGroupSession && (
            <FormField
              id={`${idPrefix}-max`}
              label="Max Participants"
              type="number"
              inputMode="numeric"
              min={GROUP_MIN}
              max={GROUP_MAX}
              value={value.maxParticipants}
              onChange={(e) => onChange({ maxParticipants: e.target.value })}
              error={errors.maxParticipants}
              hint={`Between ${GROUP_MIN} and ${GROUP_MAX} people.`}
              disabled={disabled}
            />
          )}
        </div>
      )}
    </div>
  );
}
