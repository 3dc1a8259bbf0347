import { describe, expect, it } from 'vitest';
import { groupMessages } from './grouping';

const at = (minutes: number, seconds = 0) => new Date(Date.UTC(2026, 0, 1, 10, minutes, seconds)).toISOString();
const msg = (id: string, senderId: string, createdAt: string) => ({ id, senderId, createdAt });

describe('groupMessages', () => {
  it('groups one sender’s messages less than 5 minutes apart', () => {
    const groups = groupMessages([
      msg('1', 'a', at(0)),
      msg('2', 'a', at(4, 59)),
      msg('3', 'a', at(9, 59)),
      msg('4', 'a', at(15, 0)),
    ]);
    expect(groups.map((g) => g.map((m) => m.id))).toEqual([['1', '2', '3'], ['4']]);
  });

  it('starts a new group when the sender changes', () => {
    const groups = groupMessages([msg('1', 'a', at(0)), msg('2', 'b', at(1)), msg('3', 'a', at(2))]);
    expect(groups.map((g) => g.map((m) => m.id))).toEqual([['1'], ['2'], ['3']]);
  });

  it('exactly 5 minutes still groups', () => {
    expect(groupMessages([msg('1', 'a', at(0)), msg('2', 'a', at(5))])).toHaveLength(1);
    expect(groupMessages([msg('1', 'a', at(0)), msg('2', 'a', at(5, 1))])).toHaveLength(2);
  });

  it('an empty thread has no groups', () => {
    expect(groupMessages([])).toEqual([]);
  });
});
