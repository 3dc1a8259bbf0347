import { ArrowRight, Clock, LifeBuoy, Mail, MessageCircleQuestion, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { SUPPORT_RESPONSE_HOURS } from '@/config/constants';
import { SUPPORT_HOURS } from './policy-facts';
import { FAQS } from './faq';
import { StaticPage } from './static-page';

function HelpCard({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <Card className="h-full">
      <CardContent className="flex h-full flex-col gap-3">
        <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
          <Icon aria-hidden="true" className="h-5 w-5" />
        </span>
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {children}
      </CardContent>
    </Card>
  );
}

/** /help-center with three cards, the FAQ accordion and links onwards. */
export function HelpCenterPage() {
  return (
    <StaticPage
      title="Help Center"
      icon={LifeBuoy}
      width="wide"
      intro={<p>Answers about booking, payments, sessions and becoming a mentor, and how to reach our team.</p>}
    >
      <ul className="grid gap-6 md:grid-cols-3">
        <li>
          <HelpCard icon={MessageCircleQuestion} title="Quick Answers">
            <p className="flex-1 text-sm text-slate-600">
              Most questions are answered in our frequently asked questions below.
            </p>
            <Button asChild variant="secondary" className="self-start">
              <Link to={{ hash: '#faq' }}>
                Browse the FAQ
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </Link>
            </Button>
          </HelpCard>
        </li>
        <li>
          <HelpCard icon={Mail} title="Email Support">
            <p className="flex-1 text-sm text-slate-600">
              Send us a message and we will reply within {SUPPORT_RESPONSE_HOURS} hours.
            </p>
            <Button asChild variant="secondary" className="self-start">
              <Link to="/contact">
                Contact Support
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </Link>
            </Button>
          </HelpCard>
        </li>
        <li>
          <HelpCard icon={Clock} title="Support Hours">
            <ul className="space-y-1 text-sm text-slate-600">
              <li>{SUPPORT_HOURS.weekdays}</li>
              <li>{SUPPORT_HOURS.weekends}</li>
            </ul>
          </HelpCard>
        </li>
      </ul>

      <section id="faq" aria-labelledby="faq-title" className="mx-auto mt-16 max-w-3xl scroll-mt-24">
        <h2 id="faq-title" className="font-display text-2xl font-semibold text-slate-900">
          Frequently Asked Questions
        </h2>
        <Accordion type="single" collapsible className="mt-6 border-t border-slate-200">
          {FAQS.map((faq) => (
            <AccordionItem key={faq.id} value={faq.id}>
              <AccordionTrigger>{faq.question}</AccordionTrigger>
              <AccordionContent className="[&_a]:font-medium [&_a]:text-indigo-600 [&_a:hover]:text-indigo-800">
                {faq.answer}
              </AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </section>

      <section
        aria-labelledby="more-help"
        className="mx-auto mt-16 max-w-3xl rounded-2xl bg-gradient-to-br from-indigo-600 to-violet-600 p-8 text-center text-white"
      >
        <h2 id="more-help" className="font-display text-2xl font-semibold">
          Still need help?
        </h2>
        <p className="mt-2 text-indigo-100">
          Our support team is happy to help, and our guidelines explain how we keep the community safe.
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild variant="light">
            <Link to="/contact">Contact Us</Link>
          </Button>
          <Button asChild variant="outline" className="border-white/40 bg-transparent text-white hover:bg-white/10">
            <Link to="/community-guidelines">Community Guidelines</Link>
          </Button>
        </div>
      </section>
    </StaticPage>
  );
}

export default HelpCenterPage;
