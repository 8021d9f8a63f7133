/**
 * A screening's subject as every agent reads it: the pipeline's run, `svc audit reproduce` and the
 * re-screen monitoring makes after a list update all build it here, so none of them drops a fact
 * (a reproduce that left out the phone and e-mail could not reproduce a hit they confirmed).
 */
import type { ScreeningSubject } from '../../commands/screening';
import type { AgentSubject } from './agent';

export function agentSubjectOfScreening(
  subject: ScreeningSubject,
  context: { workflow: string; accountId?: string; internalListVersions?: readonly string[] },
): AgentSubject {
  return {
    workflow: context.workflow,
    ...(context.accountId !== undefined ? { accountId: context.accountId } : {}),
    ...(context.internalListVersions !== undefined ? { internalListVersions: [...context.internalListVersions] } : {}),
    name: subject.query,
    entityType: subject.entityType,
    ...(subject.entityTypeDefaulted ? { entityTypeDefaulted: true } : {}),
    ...(subject.jurisdiction ? { jurisdiction: subject.jurisdiction } : {}),
    ...(subject.dateOfBirth ? { birthDate: subject.dateOfBirth } : {}),
    ...(subject.nationality ? { nationality: subject.nationality } : {}),
    ...(subject.identifiers?.length ? { identifiers: subject.identifiers } : {}),
    ...(subject.address ? { address: subject.address } : {}),
    ...(subject.phone ? { phone: subject.phone } : {}),
    ...(subject.email ? { email: subject.email } : {}),
  };
}
