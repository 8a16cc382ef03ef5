// The hand-over of the quotes to the board: a signal to the running board (getExternalWorkflowHandle); when there
// is no board yet (first run, or it was terminated) the refresh starts it as an abandoned child carrying the
// quotes. This keeps the Temporal client out of the activities and the whole hand-over in this workflow's history;
// the fixed board ID makes two starts collide, and the loser signals the winner.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { getExternalWorkflowHandle, log, ParentClosePolicy, startChild } from '@temporalio/workflow';
import { rateBoardUpdateSignal, type RateBoardUpdate } from '../rate-board/api';
import { rateBoard } from '../rate-board/workflow';

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function deliverToBoard(
  boardId: string,
  update: RateBoardUpdate,
): Promise<'signal' | 'started'> {
  try {
    await getExternalWorkflowHandle(boardId).signal(rateBoardUpdateSignal, update);
    return 'signal';
  } catch (err) {
    // No running board: start one with the quotes as its first entries.
    log.info('rate board not signalled; starting it', { boardId, reason: errorMessage(err) });
  }
  try {
    await startChild(rateBoard, {
      workflowId: boardId,
      args: [{ entries: update.entries, lastRefreshedBy: update.refreshedBy }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    return 'started';
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    await getExternalWorkflowHandle(boardId).signal(rateBoardUpdateSignal, update);
    return 'signal';
  }
}
