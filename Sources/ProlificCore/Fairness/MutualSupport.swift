/// Groups of users who habitually back each other, directly (a pair) or around a cycle (a ring).
///
/// The graph has an edge from a voter to an author when the voter's habit towards that author is
/// strong (`VoteWeight.isHabitual`); its strongly connected components of two or more users are
/// the groups. Votes inside a group are strongly damped.
public enum MutualSupport {
    /// Each member's group number; users outside any group are absent.
    public static func groups(in history: VotingHistory) -> [Handle: Int] {
        var edges: [Handle: [Handle]] = [:]
        for pair in history.habitual {
            edges[pair.voter, default: []].append(pair.author)
        }
        guard !edges.isEmpty else { return [:] }
        for key in edges.keys { edges[key]?.sort() }
        // Tarjan's algorithm, iterative, over nodes in sorted order for a deterministic numbering.
        var index: [Handle: Int] = [:], low: [Handle: Int] = [:], onStack: Set<Handle> = []
        var stack: [Handle] = []
        var next = 0
        var result: [Handle: Int] = [:]
        var groupCount = 0
        for start in edges.keys.sorted() where index[start] == nil {
            var work: [(node: Handle, edge: Int)] = [(start, 0)]
            index[start] = next; low[start] = next; next += 1
            stack.append(start); onStack.insert(start)
            while let (node, edge) = work.last {
                let targets = edges[node] ?? []
                if edge < targets.count {
                    work[work.count - 1].edge += 1
                    let target = targets[edge]
                    if index[target] == nil {
                        index[target] = next; low[target] = next; next += 1
                        stack.append(target); onStack.insert(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        low[node] = min(low[node] ?? 0, index[target] ?? 0)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent] ?? 0, low[node] ?? 0) }
                guard low[node] == index[node] else { continue }
                var component: [Handle] = []
                while let top = stack.popLast() {
                    onStack.remove(top)
                    component.append(top)
                    if top == node { break }
                }
                if component.count > 1 {
                    for member in component { result[member] = groupCount }
                    groupCount += 1
                }
            }
        }
        return result
    }
}
