// What can be changed in a running mock: comments added and moderated, faults switched. One
// implementation behind the /__admin/ routes (and so `comments-mock admin`), the page, and the
// MockServer object a test holds; each checks its input here, so all three fail alike.
import type { CommentStore } from "./dataset/comment-store.ts";
import type { StoredComment } from "./dataset/generate-dataset.ts";
import { currentTimestamp } from "./dataset/timestamp.ts";
import type { FaultPlan, FaultSettings } from "./faults.ts";
import { parseNewComment, resolveNewComment, type NewComment } from "./new-comment.ts";
import { parseFaultChange, type Outage, type OutageMode } from "./runtime-faults.ts";

export interface AdminActions {
  addComment(input: NewComment): StoredComment;
  /** The approved comment, or undefined when there is no comment with this id. */
  approve(id: number): StoredComment | undefined;
  /** Marks a comment as spam, as a moderator rejecting it does: no longer served. Undefined when there is none. */
  reject(id: number): StoredComment | undefined;
  /** Deletes a comment (a top-level one with its replies); the deleted comment, or undefined when there is none. */
  remove(id: number): StoredComment | undefined;
  setOutage(mode: OutageMode): void;
  outageMode(): OutageMode;
  /** Switches the given faults (the others stay); returns all of them as they now are. */
  setFaults(change: Partial<FaultSettings>): FaultSettings;
  faultSettings(): FaultSettings;
}

export interface AdminState {
  store: CommentStore;
  outage: Outage;
  faults: FaultPlan;
  /** Stamp added comments like the dataset's (created_at ending in .000000Z). */
  wholeSeconds: boolean;
  /** Called after comments change, like a service's moderation webhook. */
  onChange?: () => void;
}

export function createAdminActions({ store, outage, faults, wholeSeconds, onChange }: AdminState): AdminActions {
  const changed = <T>(result: T): T => {
    if (result !== undefined) onChange?.();
    return result;
  };
  return {
    addComment: (input) =>
      changed(store.insert(resolveNewComment(parseNewComment(input), store, currentTimestamp(wholeSeconds)))),
    approve: (id) => changed(store.setStatus(id, "approved")),
    reject: (id) => changed(store.setStatus(id, "spam")),
    remove: (id) => changed(store.remove(id)),
    setOutage: (mode) => outage.set(mode),
    outageMode: () => outage.mode,
    setFaults: (change) => faults.update(parseFaultChange(change)),
    faultSettings: () => faults.settings,
  };
}
