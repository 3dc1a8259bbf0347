import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answerComplaint, getListMentorComplaintsUrl, listMentorComplaints } from '@/api/endpoints/dashboard/dashboard';
import type { ComplaintDetailView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The mentor's side of complaints (docs/payments.md): the complaints about their sessions and their one answer.

export type MentorComplaint = ComplaintDetailView;

export const mentorComplaintKeys = {
  all: () => apiKey(getListMentorComplaintsUrl()),
};

export const mentorComplaintQueries = {
  /** GET /api/mentor/complaints: every complaint about the mentor's sessions, open ones first. */
  all: () =>
    queryOptions({
      queryKey: mentorComplaintKeys.all(),
      queryFn: ({ signal }) => listMentorComplaints(undefined, { signal }),
      staleTime: 0,
    }),
};

export function useMentorComplaints() {
  return useQuery(mentorComplaintQueries.all());
}

/** POST /api/mentor/complaints/{id}/response {message}: once, within 48 hours. */
export function useAnswerComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) => answerComplaint(id, { message }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mentorComplaintKeys.all() }),
  });
}
