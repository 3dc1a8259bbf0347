import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { BrandMark } from '@/components/brand';

/** The centred card the sign-in, password and verification screens share. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="relative flex flex-1 items-start justify-center overflow-hidden px-4 py-12 sm:items-center sm:py-16">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-gradient-to-br from-indigo-50 via-white to-violet-50"
      />
      <div
        aria-hidden="true"
        className="absolute -top-24 -right-24 -z-10 h-72 w-72 rounded-full bg-violet-200/40 blur-3xl"
      />
      <div
        aria-hidden="true"
        className="absolute -bottom-24 -left-24 -z-10 h-72 w-72 rounded-full bg-indigo-200/40 blur-3xl"
      />
      <Card className="w-full max-w-md animate-fade-in">
        <CardContent className="p-6 sm:p-8">
          <div className="mb-6 flex flex-col items-center text-center">
            <BrandMark className="h-11 w-11" />
            <h1 className="mt-4 font-display text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
            {subtitle && <p className="mt-2 text-sm text-slate-600">{subtitle}</p>}
          </div>
          {children}
        </CardContent>
      </Card>
    </div>
  );
}
