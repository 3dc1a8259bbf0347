import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  discardJob,
  getClusterState,
  getGetClusterStateUrl,
  getListJobQueuesUrl,
  getListJobSchedulesUrl,
  getListJobsUrl,
  listJobQueues,
  listJobSchedules,
  listJobs,
  retryJob,
} from '@/api/endpoints/admin/admin';
import { JobState, type ListJobsParams } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The job console's calls (GET /api/admin/jobs/queues, /api/admin/jobs, /api/admin/jobs/schedules,
// /api/admin/jobs/cluster; POST /api/admin/jobs/{id}/retry and /discard). Admin only; the figures refresh on their own.

/** How often the console reloads its figures and tasks. */
export const REFRESH_MS = 5_000;

export { JobState };

/** The states a task can be in, in the API's order. */
export const JOB_STATES = Object.values(JobState);

export const STATE_LABELS: Record<JobState, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  running: 'Running',
  failed: 'Failed',
  set_aside: 'Set aside',
  done: 'Done',
  discarded: 'Discarded',
};

const RETRYABLE: readonly JobState[] = [JobState.failed, JobState.set_aside];
const DISCARDABLE: readonly JobState[] = [JobState.pending, JobState.scheduled, JobState.failed, JobState.set_aside];
export const canRetry = (state: JobState) => RETRYABLE.includes(state);
export const canDiscard = (state: JobState) => DISCARDABLE.includes(state);

export const jobKeys = {
  queues: () => apiKey(getListJobQueuesUrl()),
  /** Without params: every page of every filter (for invalidation). */
  jobs: (params?: ListJobsParams) => apiKey(getListJobsUrl(), params),
  schedules: () => apiKey(getListJobSchedulesUrl()),
  cluster: () => apiKey(getGetClusterStateUrl()),
};

/** The console's reads, each reloaded every {@link REFRESH_MS}. */
export const jobQueries = {
  queues: () =>
    queryOptions({
      queryKey: jobKeys.queues(),
      queryFn: ({ signal }) => listJobQueues({ signal }),
      refetchInterval: REFRESH_MS,
    }),
  jobs: (params: ListJobsParams) =>
    queryOptions({
      queryKey: jobKeys.jobs(params),
      queryFn: ({ signal }) => listJobs(params, { signal }),
      refetchInterval: REFRESH_MS,
    }),
  schedules: () =>
    queryOptions({
      queryKey: jobKeys.schedules(),
      queryFn: ({ signal }) => listJobSchedules({ signal }),
      refetchInterval: REFRESH_MS,
    }),
  cluster: () =>
    queryOptions({
      queryKey: jobKeys.cluster(),
      queryFn: ({ signal }) => getClusterState({ signal }),
      refetchInterval: REFRESH_MS,
    }),
};

export function useJobQueues() {
  return useQuery(jobQueries.queues());
}

export function useJobs(params: ListJobsParams) {
  return useQuery({ ...jobQueries.jobs(params), placeholderData: (previous) => previous });
}

export function useJobSchedules() {
  return useQuery(jobQueries.schedules());
}

export function useClusterState() {
  return useQuery(jobQueries.cluster());
}

/** Retry or discard one task; the queues and the task list reload. */
export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'retry' | 'discard' }) =>
      action === 'retry' ? retryJob(id) : discardJob(id),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: jobKeys.queues() });
      void qc.invalidateQueries({ queryKey: jobKeys.jobs() });
    },
  });
}
