import CoreMetrics

/// What the use cases count for `/metrics`: answers recorded (a rate of them is answers per second)
/// and bank imports. Built from the server's metrics factory; `.off` counts into nothing.
package struct ActivityMetrics: Sendable {
    let quizAnswers: Counter
    let singleAnswers: Counter
    let liveAnswers: Counter
    let importsSucceeded: Counter
    let importsFailed: Counter

    package init(factory: any MetricsFactory) {
        func answers(_ kind: String) -> Counter {
            Counter(label: "quizbox_answers_total", dimensions: [("kind", kind)], factory: factory)
        }
        func imports(_ result: String) -> Counter {
            Counter(label: "quizbox_imports_total", dimensions: [("result", result)], factory: factory)
        }
        quizAnswers = answers("quiz")
        singleAnswers = answers("single")
        liveAnswers = answers("live")
        importsSucceeded = imports("succeeded")
        importsFailed = imports("failed")
    }

    package static let off = ActivityMetrics(factory: NOOPMetricsHandler.instance)
}
