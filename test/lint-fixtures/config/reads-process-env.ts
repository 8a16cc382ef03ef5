// A library module that reads its environment itself, three ways: lint must refuse each (only entry modules read
// process.env; eslint.config.mjs, ENV_ENTRY_MODULES).
export const level = process.env.XBORDER_LOG_LEVEL;
export const { env } = process;
export const queue = process['env'].XBORDER_TASK_QUEUE;
