/// The mask penalty of ISO/IEC 18004 §7.8.3: runs of one colour, 2×2 blocks, finder-like
/// patterns and the balance of dark and light. The lowest score wins.
struct QRPenalty {
    let size: Int
    let modules: [Bool]

    var score: Int {
        var result = 0
        for line in 0..<size {
            result += linePenalty { modules[line * size + $0] }
            result += linePenalty { modules[$0 * size + line] }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = modules[y * size + x]
                if colour == modules[y * size + x + 1], colour == modules[(y + 1) * size + x],
                    colour == modules[(y + 1) * size + x + 1]
                {
                    result += 3
                }
            }
        }
        let dark = modules.lazy.filter { $0 }.count
        let total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }

    /// Runs of five or more, and finder-like 1:1:3:1:1 patterns with four light modules beside them.
    private func linePenalty(_ module: (Int) -> Bool) -> Int {
        var result = 0
        var runColour = false
        var runLength = 0
        var history = [Int](repeating: 0, count: 7)
        for index in 0..<size {
            if module(index) == runColour {
                runLength += 1
                if runLength == 5 { result += 3 } else if runLength > 5 { result += 1 }
            } else {
                addHistory(runLength, to: &history)
                if !runColour { result += finderLikePatterns(history) * 40 }
                runColour = module(index)
                runLength = 1
            }
        }
        if runColour {
            addHistory(runLength, to: &history)
            runLength = 0
        }
        addHistory(runLength + size, to: &history)
        return result + finderLikePatterns(history) * 40
    }

    private func addHistory(_ length: Int, to history: inout [Int]) {
        // The light border before the first run counts as part of it.
        let run = history[0] == 0 ? length + size : length
        history.removeLast()
        history.insert(run, at: 0)
    }

    private func finderLikePatterns(_ history: [Int]) -> Int {
        let unit = history[1]
        let core = unit > 0 && history[2] == unit && history[3] == unit * 3 && history[4] == unit && history[5] == unit
        return (core && history[0] >= unit * 4 && history[6] >= unit ? 1 : 0)
            + (core && history[6] >= unit * 4 && history[0] >= unit ? 1 : 0)
    }
}
