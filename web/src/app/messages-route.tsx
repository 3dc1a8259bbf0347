/**
 * /messages: the messages page, with the meter of a reading in progress above it when the address
 * names one (`reading=`, the reading page's links to its chat and call). Composed here, as features
 * do not import each other.
 */
import { MessagesPage } from '@/features/messages/messages-page';
import { ActiveReadingMeter } from '@/features/wallet/reading-meter';

export default function MessagesRoute() {
  return (
    <>
      <ActiveReadingMeter />
      <MessagesPage />
    </>
  );
}
