import CoreMetrics
import Prometheus

/// swift-metrics' labels in Prometheus's names: dots and other characters Prometheus does not
/// allow become `_`, a counter ends in `_total` and a timer in `_seconds` (as Prometheus's
/// naming rules ask, and `promtool check metrics` checks). Wraps `PrometheusMetricsFactory`.
struct PrometheusNaming: MetricsFactory {
    let factory: PrometheusMetricsFactory

    init(registry: PrometheusCollectorRegistry) {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (Self.sanitized(name), labels.map { (Self.sanitized($0.0), $0.1) })
        }
        self.factory = factory
    }

    /// `name` with every character outside `[a-zA-Z0-9_]` as `_`, and `_` before a leading digit.
    static func sanitized(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                ? Character(scalar) : "_"
        }
        let text = String(allowed)
        return text.first.map { $0.isNumber } == true ? "_" + text : text
    }

    static func suffixed(_ label: String, _ suffix: String) -> String {
        label.hasSuffix(suffix) ? label : label + suffix
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        factory.makeCounter(label: Self.suffixed(label, ".total"), dimensions: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        factory.makeFloatingPointCounter(label: Self.suffixed(label, ".total"), dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        factory.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        factory.makeMeter(label: label, dimensions: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        factory.makeTimer(label: Self.suffixed(label, ".seconds"), dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { factory.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { factory.destroyFloatingPointCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { factory.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { factory.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { factory.destroyTimer(handler) }
}
