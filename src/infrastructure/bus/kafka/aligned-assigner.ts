/**
 * The partition assigner of every consumer group of the service: partition p of each topic goes to
 * member p mod n among the members subscribed to that topic (sorted by member id).
 *
 * - Members of one group may subscribe to different topics: a worker running `--agents sanctions,pep`
 *   and one running the external sources share the group svc-agents. kafkajs's round-robin assigner
 *   assigns the leader's own topics to everyone (members then drop what they did not subscribe to, and
 *   the other topics stay unassigned); this one reads each member's subscription from its metadata.
 * - Partitions are aligned across topics: the topics are keyed by the workflow stream with the same
 *   partitioner and partition count, so one member gets a screening's ScreeningRequested and its
 *   agents' results (svc-workflows: its history stays in that member's memory between steps), and,
 *   among workers running the same agents, all of a screening's tasks.
 */
import { AssignerProtocol, type PartitionAssigner } from 'kafkajs';

export const ALIGNED_ASSIGNER = 'SvcAlignedAssigner';

export const alignedAssigner: PartitionAssigner = ({ cluster }) => ({
  name: ALIGNED_ASSIGNER,
  version: 1,
  async assign({ members }) {
    const subscriptions = members.map((m) => ({ memberId: m.memberId, topics: AssignerProtocol.MemberMetadata.decode(m.memberMetadata)?.topics ?? [] }));
    const topics = [...new Set(subscriptions.flatMap((s) => s.topics))].sort();
    // The leader knows the partitions of its own topics only: fetch the others' too.
    await cluster.addMultipleTargetTopics(topics);
    const assignment = new Map<string, Record<string, number[]>>();
    for (const topic of topics) {
      const eligible = subscriptions.filter((s) => s.topics.includes(topic)).map((s) => s.memberId).sort();
      for (const { partitionId } of cluster.findTopicPartitionMetadata(topic)) {
        const member = eligible[partitionId % eligible.length]!;
        const own = assignment.get(member) ?? {};
        (own[topic] ??= []).push(partitionId);
        assignment.set(member, own);
      }
    }
    return members.map(({ memberId }) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 1, assignment: assignment.get(memberId) ?? {}, userData: Buffer.alloc(0) }),
    }));
  },
  protocol({ topics }) {
    return { name: ALIGNED_ASSIGNER, metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }) };
  },
});
