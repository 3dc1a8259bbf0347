import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { getGroupSession } from '@/api/endpoints/booking/booking';
import type { CallMemberView, GroupCallView, RemovalReason } from '@/api/model';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime/provider';
import { GroupCallConnection, type RoomSnapshot } from './group-call-connection';
import { useMutedByMentor } from './mute-state';
import { GROUP_CALL_TEXT } from './texts';

/** Where the call sends its members when they leave it or it ends. */
export const BACK_TO = '/group-sessions';

const NO_ROOM: RoomSnapshot = {
  status: 'connecting',
  error: null,
  local: null,
  screen: null,
  remote: new Map(),
};

/**
 * The state of one member's group call: the connection to the room, who is in it, who the mentor
 * keeps muted or removed, the session starting and ending, and this member's own controls.
 * The page only renders what this returns.
 */
export function useGroupCall(call: GroupCallView) {
  const navigate = useNavigate();
  const { client, connected: listening } = useRealtime();
  const isMentor = call.role === 'mentor';
  const id = call.groupSessionId;
  const [room, setRoom] = useState<RoomSnapshot>(NO_ROOM);
  const roomRef = useRef<GroupCallConnection | null>(null);
  const [active, setActive] = useState(call.status === 'active');
  const [startedAt, setStartedAt] = useState<number>(() => Date.parse(call.scheduledAt));
  const [members, setMembers] = useState<CallMemberView[]>(call.members);
  // Who the mentor keeps muted, from the call (a reload keeps the mute) and then the events.
  const [muted, setMuted] = useState<ReadonlySet<string>>(
    () => new Set(call.members.filter((m) => m.isMutedByMentor).map((m) => m.id)),
  );
  const mutedOnArrival = call.members.some((m) => m.janusId === call.participantId && m.isMutedByMentor);
  const [cameraOff, setCameraOff] = useState<ReadonlySet<string>>(new Set());
  const [micOn, setMicOn] = useState(!mutedOnArrival);
  const [camOn, setCamOn] = useState(true);
  const [sharing, setSharing] = useState(false);
  const me = members.find((m) => m.janusId === call.participantId);
  // Removed by the mentor: this page says so, with no way back into the call.
  const [removed, setRemoved] = useState(false);
  // Muted by the mentor: the microphone goes off and stays off until they unmute.
  const mutedByMentor = useMutedByMentor(
    id,
    isMentor ? undefined : me?.id,
    () => {
      roomRef.current?.setAudio(false);
      setMicOn(false);
    },
    mutedOnArrival,
  );

  // Take the seat (again each time the socket is ready); leave it when the page goes.
  useEffect(() => {
    if (!client) return;
    const connection = new GroupCallConnection({
      client,
      groupSessionId: id,
      iceServers: call.iceServers.map((s) => ({ urls: s.urls, username: s.username, credential: s.credential })),
      onChange: setRoom,
    });
    roomRef.current = connection;
    void connection.start();
    return () => {
      connection.leave();
      roomRef.current = null;
    };
    // The call view is fetched once per visit (staleTime Infinity): this runs once per client.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, id]);

  const leaveTo = (path: string) => {
    roomRef.current?.leave();
    navigate(path);
  };

  const activeRef = useRef(active);
  const started = (at: number) => {
    if (activeRef.current) return;
    activeRef.current = true;
    setActive(true);
    setStartedAt(at);
    toast.success(GROUP_CALL_TEXT.started);
  };
  const ended = () => {
    toast.info(GROUP_CALL_TEXT.ended);
    leaveTo(BACK_TO);
  };
  useRealtimeEvent('group-session-started', (d) => {
    if (d.groupSessionId !== id) return;
    started(Date.parse(d.startedAt) || Date.now());
  });
  useRealtimeEvent('group-session-ended', (d) => {
    if (d.groupSessionId !== id) return;
    ended();
  });
  // A start or end announced before this page's socket was ready (or while it reconnected) never
  // reaches it: each time the socket is ready, the session's state is read once.
  useEffect(() => {
    if (!listening) return;
    const controller = new AbortController();
    getGroupSession(id, { signal: controller.signal })
      .then((session) => {
        if (session.status === 'active') started(Date.parse(call.scheduledAt));
        else if (session.status === 'completed' || session.status === 'cancelled') ended();
      })
      .catch(() => {
        // Aborted or offline: the events, or the next connection, bring the state.
      });
    return () => controller.abort();
    // Runs per connection; `started` and `ended` read refs and setters only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listening, id]);
  useRealtimeEvent('participant-joined', (d) => {
    const p = d.participant;
    if (d.groupSessionId !== id || !p) return;
    setMembers((list) =>
      list.some((m) => m.id === p.id)
        ? list
        : [
            ...list,
            {
              id: p.id,
              firstName: p.firstName ?? '',
              lastName: p.lastName ?? '',
              profileImageUrl: p.profileImageUrl ?? null,
              janusId: p.janusId,
              isMentor: p.isMentor,
              // A newcomer's mute shows in `muted` once the mentor mutes them.
              isMutedByMentor: false,
            },
          ],
    );
  });
  useRealtimeEvent('participant-left', (d) => {
    if (d.groupSessionId !== id || d.reason !== 'removed') return;
    if (me && d.participantId === me.id) {
      toast.error(GROUP_CALL_TEXT.youWereRemoved);
      roomRef.current?.leave();
      setRemoved(true);
      return;
    }
    setMembers((list) => list.filter((m) => m.id !== d.participantId));
    if (isMentor) toast.success(GROUP_CALL_TEXT.removedParticipant);
  });
  useRealtimeEvent('participant-muted', (d) => {
    if (d.groupSessionId !== id) return;
    setMuted((s) => new Set(s).add(d.participantId));
  });
  useRealtimeEvent('participant-unmuted', (d) => {
    if (d.groupSessionId !== id) return;
    setMuted((s) => {
      const next = new Set(s);
      next.delete(d.participantId);
      return next;
    });
  });
  useRealtimeEvent('toggle-video', (d) => {
    if (d.groupSessionId !== id) return;
    setCameraOff((s) => {
      const next = new Set(s);
      if (d.isVideoEnabled) next.delete(d.participantId);
      else next.add(d.participantId);
      return next;
    });
  });

  const toggleMic = () => {
    if (mutedByMentor) return;
    roomRef.current?.setAudio(!micOn);
    client?.send('toggle-audio', { groupSessionId: id, isAudioEnabled: !micOn });
    setMicOn(!micOn);
  };
  const toggleCam = () => {
    roomRef.current?.setVideo(!camOn);
    client?.send('toggle-video', { groupSessionId: id, isVideoEnabled: !camOn });
    setCamOn(!camOn);
  };
  const toggleScreen = () => {
    void roomRef.current?.shareScreen(!sharing);
    setSharing(!sharing);
  };

  const sendToMember = (event: 'mute-participant' | 'unmute-participant', participantId: string) =>
    client?.send(event, { groupSessionId: id, participantId });

  return {
    room,
    isMentor,
    active,
    startedAt,
    members,
    muted,
    cameraOff,
    micOn,
    camOn,
    sharing,
    removed,
    mutedByMentor,
    toggleMic,
    toggleCam,
    toggleScreen,
    muteMember: (memberId: string) => sendToMember('mute-participant', memberId),
    unmuteMember: (memberId: string) => sendToMember('unmute-participant', memberId),
    /** The mentor removes a member, saying why (the reason decides the seat's money). */
    removeMember: (memberId: string, reason: RemovalReason) =>
      client?.send('remove-participant', { groupSessionId: id, participantId: memberId, reason }),
    startSession: () => client?.send('start-group-session', { groupSessionId: id }),
    endSession: () => client?.send('end-group-session', { groupSessionId: id }),
    leave: () => leaveTo(BACK_TO),
  };
}
