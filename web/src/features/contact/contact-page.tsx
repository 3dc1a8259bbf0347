import {
  ArrowRight,
  CalendarDays,
  Clock,
  LifeBuoy,
  Mail,
  MessageSquare,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { SupportEmailLink } from '@/components/site-info';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { SUPPORT_RESPONSE_HOURS } from '@/config/constants';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useSendContactMessage } from './api';
import { CONTACT_CATEGORIES, type ContactCategory } from './categories';
import { EMPTY_CONTACT_FORM, MISSING_INFORMATION, toContactRequest, type ContactForm } from './validation';

export const CONTACT_SENT = {
  title: 'Message Sent!',
  description: `Thank you for contacting us. We'll get back to you within ${SUPPORT_RESPONSE_HOURS} hours.`,
} as const;

export const CONTACT_FAILED = {
  title: 'Error',
  description: 'Failed to send message. Please try again or use our email address.',
} as const;

function InfoRow({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
        <Icon aria-hidden="true" className="h-5 w-5" />
      </span>
      <div className="min-w-0 text-sm">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        <div className="mt-0.5 text-slate-600">{children}</div>
      </div>
    </li>
  );
}

/** /contact, a public page: the form, the support panel and the emergency notice. */
export function ContactPage() {
  useDocumentTitle('Contact Us');
  const [form, setForm] = useState<ContactForm>(EMPTY_CONTACT_FORM);
  const send = useSendContactMessage();

  const set =
    <K extends keyof ContactForm>(key: K) =>
    (e: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [key]: e.target.value as ContactForm[K] }));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const request = toContactRequest(form);
    if (!request) {
      toast.error(MISSING_INFORMATION.title, { description: MISSING_INFORMATION.description });
      return;
    }
    send.mutate(request, {
      onSuccess: () => {
        toast.success(CONTACT_SENT.title, { description: CONTACT_SENT.description });
        setForm(EMPTY_CONTACT_FORM);
      },
      onError: () => toast.error(CONTACT_FAILED.title, { description: CONTACT_FAILED.description }),
    });
  };

  return (
    <>
      <section className="bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto max-w-4xl px-4 py-12 text-center sm:px-6 sm:py-16 lg:px-8">
          <span className="mx-auto inline-flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
            <MessageSquare aria-hidden="true" className="h-7 w-7" />
          </span>
          <h1 className="mt-5 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            Contact Us
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-base leading-relaxed text-slate-600">
            Questions about a booking, a payment or becoming a mentor? Send us a message and our support team will get
            back to you.
          </p>
        </div>
      </section>

      <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-12 sm:px-6 lg:grid-cols-3 lg:px-8">
        <Card className="lg:col-span-2 lg:self-start">
          <CardHeader>
            <CardTitle>Send us a message</CardTitle>
            <p className="text-sm text-slate-600">Fields marked * are required.</p>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} className="space-y-5" aria-label="Contact form">
              <div className="grid gap-5 sm:grid-cols-2">
                <FormField
                  label="Name *"
                  aria-label="Name"
                  name="name"
                  autoComplete="name"
                  required
                  value={form.name}
                  onChange={set('name')}
                />
                <FormField
                  label="Email *"
                  aria-label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={form.email}
                  onChange={set('email')}
                />
              </div>
              <div className="grid gap-5 sm:grid-cols-2">
                <FormField label="Subject" name="subject" value={form.subject} onChange={set('subject')} />
                <Field label="Category">
                  {(control) => (
                    <Select {...control} name="category" value={form.category} onChange={set('category')}>
                      <option value="">Choose a category</option>
                      {CONTACT_CATEGORIES.map((c) => (
                        <option key={c.value} value={c.value satisfies ContactCategory}>
                          {c.label}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              </div>
              <Field label="Message *">
                {(control) => (
                  <Textarea
                    {...control}
                    aria-label="Message"
                    name="message"
                    rows={6}
                    required
                    placeholder="How can we help?"
                    value={form.message}
                    onChange={set('message')}
                  />
                )}
              </Field>
              <Button type="submit" variant="gradient" size="lg" className="w-full sm:w-auto" disabled={send.isPending}>
                {send.isPending ? 'Sending...' : 'Send Message'}
              </Button>
            </form>
          </CardContent>
        </Card>

        <aside className="space-y-6" aria-label="Support information">
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Get in touch</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-5">
                <InfoRow icon={Mail} title="Email Support">
                  <p>Send us a message with this form.</p>
                  <p className="mt-1">
                    Or write to <SupportEmailLink className="font-medium text-indigo-600 hover:text-indigo-800" />
                  </p>
                </InfoRow>
                <InfoRow icon={Clock} title="Response Time">
                  Within {SUPPORT_RESPONSE_HOURS} hours
                </InfoRow>
                <InfoRow icon={CalendarDays} title="Availability">
                  Monday through Sunday
                </InfoRow>
              </ul>
            </CardContent>
          </Card>

          <Card>
            <CardContent className="space-y-3">
              <div className="flex items-center gap-2">
                <LifeBuoy aria-hidden="true" className="h-5 w-5 text-indigo-600" />
                <h2 className="text-lg font-semibold text-slate-900">Looking for quick answers?</h2>
              </div>
              <p className="text-sm text-slate-600">
                Our Help Center answers common questions about booking, payments, refunds and sessions.
              </p>
              <Button asChild variant="secondary">
                <Link to="/help-center">
                  Visit the Help Center
                  <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </Link>
              </Button>
            </CardContent>
          </Card>

          <section
            aria-labelledby="emergency-notice"
            className="rounded-2xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900"
          >
            <div className="flex items-center gap-2">
              <TriangleAlert aria-hidden="true" className="h-5 w-5 text-amber-600" />
              <h2 id="emergency-notice" className="font-semibold">
                In an emergency
              </h2>
            </div>
            <p className="mt-2 leading-relaxed">
              Our mentors provide spiritual guidance, not medical or mental health treatment. If you or someone else is
              in danger or in crisis, contact your local emergency services or a crisis line right away.
            </p>
          </section>
        </aside>
      </div>
    </>
  );
}

export default ContactPage;
