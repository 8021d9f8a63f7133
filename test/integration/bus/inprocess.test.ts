import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import { busContract, recordingLogger } from './contract';

busContract(
  'in-process',
  async () => {
    const logger = recordingLogger();
    const bus = new InProcessBus({ logger, redeliveryBackoff: { initialMs: 10, maxMs: 50 } });
    return {
      bus,
      logger,
      // In-process state lives in the bus object: a "restarted" consumer is a new subscription on it.
      newClient: async () => bus,
      close: () => bus.close(),
    };
  },
  { deliveryTimeoutMs: 2_000 },
);
