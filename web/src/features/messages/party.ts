import { personName } from '@/components/person-avatar';
import type { Person } from '@/lib/realtime';
import type { Conversation } from './api';

export type Party = { id: string; person: Person; name: string; imageUrl: string | null };

/** The other side of a conversation for `myId`: the mentor for the seeker, the seeker for the mentor. */
export function otherParty(conversation: Conversation, myId: string | undefined): Party {
  if (conversation.userId === myId || conversation.user?.id === myId) {
    const mentor = conversation.mentor;
    const person = mentor.user;
    const name = mentor.displayName?.trim() || personName(person);
    return {
      id: person.id ?? mentor.userId ?? '',
      person,
      name,
      imageUrl: mentor.profileImageUrl || person.profileImageUrl || null,
    };
  }
  const person = conversation.user;
  return { id: person.id, person, name: personName(person), imageUrl: person.profileImageUrl ?? null };
}
