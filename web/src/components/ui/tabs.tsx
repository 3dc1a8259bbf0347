import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

// The app's tabs (Radix Tabs, so arrow keys, roles and aria wiring come with it): a bar of pill
// triggers, the active one filled. The dashboards, the admin pages and the notifications use them.

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn('flex gap-1 overflow-x-auto rounded-xl border border-slate-200 bg-white p-1 shadow-sm', className)}
      {...props}
    />
  );
}

const TRIGGER_VARIANTS = {
  /** Filled indigo when active (dashboards, admin). */
  pill: cn(
    'inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-lg px-4 py-2 text-sm font-medium transition-colors',
    'data-[state=active]:bg-indigo-600 data-[state=active]:text-white data-[state=active]:shadow-sm',
    'data-[state=inactive]:text-slate-600 data-[state=inactive]:hover:bg-slate-100',
  ),
  /** Equal widths, a light tint when active (filters such as the notifications'). */
  segment:
    'flex-1 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 data-[state=active]:bg-indigo-50 data-[state=active]:text-indigo-700',
};

export function TabsTrigger({
  className,
  variant = 'pill',
  ...props
}: ComponentProps<typeof TabsPrimitive.Trigger> & { variant?: keyof typeof TRIGGER_VARIANTS }) {
  return <TabsPrimitive.Trigger className={cn(TRIGGER_VARIANTS[variant], className)} {...props} />;
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn('mt-6 outline-none', className)} {...props} />;
}
