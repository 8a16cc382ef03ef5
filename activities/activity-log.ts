// A warning in the running activity's log; a direct call outside an activity (a script, a test) has none to write to.
import { Context } from '@temporalio/activity';

export function warnInActivity(message: string, attributes: Record<string, unknown>): void {
  try {
    Context.current().log.warn(message, attributes);
  } catch {
    // outside an activity (a direct call): nothing to log to
  }
}
