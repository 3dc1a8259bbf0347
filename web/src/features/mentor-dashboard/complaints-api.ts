import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  answerComplaint,
  answerReadingComplaint,
  getListMentorComplaintsUrl,
  getListMentorReadingComplaintsUrl,
  listMentorComplaints,
  listMentorReadingComplaints,
} from '@/api/endpoints/dashboard/dashboard';
import type { ComplaintDetailView, MentorReadingComplaintView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The mentor's side of complaints (docs/payments.md): the complaints about their sessions and their one answer.

export type MentorComplaint = ComplaintDetailView;
export type MentorReadingComplaint = MentorReadingComplaintView;

export const mentorComplaintKeys = {
  all: () => apiKey(getListMentorComplaintsUrl()),
  readings: () => apiKey(getListMentorReadingComplaintsUrl()),
};

export const mentorComplaintQueries = {
  /** GET /api/mentor/complaints: every complaint about the mentor's sessions, open ones first. */
  all: () =>
    queryOptions({
      queryKey: mentorComplaintKeys.all(),
      queryFn: ({ signal }) => listMentorComplaints(undefined, { signal }),
      staleTime: 0,
    }),
  /** GET /api/mentor/reading-complaints: the complaints about the mentor's readings (issue 36). */
  readings: () =>
    queryOptions({
      queryKey: mentorComplaintKeys.readings(),
      queryFn: ({ signal }) => listMentorReadingComplaints({ signal }),
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

export function useMentorReadingComplaints() {
  return useQuery(mentorComplaintQueries.readings());
}

/** POST /api/mentor/reading-complaints/{id}/response {message}: once, within 48 hours. */
export function useAnswerReadingComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) => answerReadingComplaint(id, { message }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mentorComplaintKeys.readings() }),
  });
}
