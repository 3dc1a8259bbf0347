import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  discardJob,
  getListJobQueuesQueryKey,
  getListJobSchedulesQueryKey,
  getListJobsQueryKey,
  listJobQueues,
  listJobSchedules,
  listJobs,
  retryJob,
} from '@/api/endpoints/admin/admin';
import type { ListJobsParams } from '@/api/model';

// The job console's calls (GET /api/admin/jobs/queues, /api/admin/jobs, /api/admin/jobs/schedules;
// POST /api/admin/jobs/{id}/retry and /discard). Admin only; the figures refresh on their own.

/** How often the console reloads its figures and tasks. */
export const REFRESH_MS = 5_000;

/** The states a task can be in, as the API names them. */
export const JOB_STATES = ['pending', 'scheduled', 'running', 'failed', 'set_aside', 'done', 'discarded'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const STATE_LABELS: Record<JobState, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  running: 'Running',
  failed: 'Failed',
  set_aside: 'Set aside',
  done: 'Done',
  discarded: 'Discarded',
};

export const canRetry = (state: string) => state === 'failed' || state === 'set_aside';
export const canDiscard = (state: string) => ['pending', 'scheduled', 'failed', 'set_aside'].includes(state);

export function useJobQueues() {
  return useQuery({
    queryKey: getListJobQueuesQueryKey(),
    queryFn: ({ signal }) => listJobQueues({ signal }),
    refetchInterval: REFRESH_MS,
  });
}

export function useJobs(params: ListJobsParams) {
  return useQuery({
    queryKey: getListJobsQueryKey(params),
    queryFn: ({ signal }) => listJobs(params, { signal }),
    refetchInterval: REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

export function useJobSchedules() {
  return useQuery({
    queryKey: getListJobSchedulesQueryKey(),
    queryFn: ({ signal }) => listJobSchedules({ signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** Retry or discard one task; the queues and the task list reload. */
export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'retry' | 'discard' }) =>
      action === 'retry' ? retryJob(id) : discardJob(id),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: getListJobQueuesQueryKey() });
      void qc.invalidateQueries({ queryKey: ['/api/admin/jobs'] });
    },
  });
}
