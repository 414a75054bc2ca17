package io.idemkit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Runs the benchmarks through the JMH Runner API and prints one table of the absolute figures and
 * of the ratios the project targets, all from this one run.
 *
 * <h2>Why interleaved rounds in this JVM</h2>
 *
 * The machines are two shared cores whose load swings several-fold within seconds. Run one after
 * the other, as JMH runs benchmarks, two benchmarks see different machines, and their ratio
 * measures the neighbours. So every benchmark is warmed once, then measured in rounds: each round
 * gives every case one iteration, in an order rotated each round, and each ratio is taken within a
 * round, then summarised by its median over the rounds. That needs one warm JVM for all cases, so
 * JMH does not fork ({@code forks(0)}): this JVM is itself started fresh for the run, with the heap
 * and flags the benchmarks need (see the {@code bench} profile in the pom).
 *
 * <p>Arguments, all optional, as {@code name=value}: {@code rounds} (default 8), {@code seconds}
 * per iteration (1), {@code warmup} iterations before the first round (5) and {@code filter}, a
 * regex over {@code Class.method} names. A missed target is reported, never a failure: the exit
 * status is non-zero only when a benchmark fails.
 */
public final class BenchMain {

    private static final String PACKAGE = BenchMain.class.getPackageName() + ".";

    /** What is measured, at which thread counts. */
    private static final List<Case> CASES =
            List.of(
                    new Case("EngineBenchmark.bareHashing", 1),
                    new Case("EngineBenchmark.freshPath", 1),
                    new Case("EngineBenchmark.replayPath", 1),
                    new Case("InterceptorBenchmark.directCall", 1),
                    new Case("InterceptorBenchmark.methodHashing", 1),
                    new Case("InterceptorBenchmark.interceptorFresh", 1),
                    new Case("InterceptorBenchmark.interceptorReplay", 1),
                    new Case("MongoBenchmark.mongoFresh", 1),
                    new Case("MongoBenchmark.mongoReplay", 1),
                    new Case("MongoBenchmark.rawInsertOne", 1),
                    new Case("MongoBenchmark.mongoFresh", 8),
                    new Case("MongoBenchmark.mongoReplay", 8),
                    new Case("MongoBenchmark.rawInsertOne", 8),
                    new Case("JdbcBenchmark.jdbcFresh", 1),
                    new Case("JdbcBenchmark.jdbcFreshQuiet", 1),
                    new Case("JdbcBenchmark.jdbcReplay", 1),
                    new Case("JdbcBenchmark.rawInsert", 1),
                    new Case("JdbcBenchmark.jdbcFresh", 8),
                    new Case("JdbcBenchmark.jdbcFreshQuiet", 8),
                    new Case("JdbcBenchmark.jdbcReplay", 8),
                    new Case("JdbcBenchmark.rawInsert", 8),
                    new Case("RedisBenchmark.redisFresh", 1),
                    new Case("RedisBenchmark.redisReplay", 1),
                    new Case("RedisBenchmark.rawSet", 1),
                    new Case("RedisBenchmark.redisFresh", 8),
                    new Case("RedisBenchmark.redisReplay", 8),
                    new Case("RedisBenchmark.rawSet", 8));

    /**
     * The targets, and the figures without one, each checked at every thread count both sides were
     * measured at.
     */
    private static final List<Ratio> RATIOS =
            List.of(
                    Ratio.costAtMost(
                            "EngineBenchmark.freshPath", "EngineBenchmark.bareHashing", 3.0),
                    Ratio.costAtMost(
                            "EngineBenchmark.replayPath", "EngineBenchmark.bareHashing", 2.0),
                    Ratio.costAtMost(
                            "InterceptorBenchmark.interceptorReplay",
                            "InterceptorBenchmark.methodHashing",
                            2.0),
                    Ratio.cost(
                            "InterceptorBenchmark.interceptorFresh",
                            "InterceptorBenchmark.directCall"),
                    Ratio.cost(
                            "InterceptorBenchmark.interceptorReplay",
                            "InterceptorBenchmark.directCall"),
                    Ratio.rateAtLeast(
                            "MongoBenchmark.mongoReplay", "MongoBenchmark.rawInsertOne", 0.8),
                    // A fresh request is two round trips (claim, complete) to the raw one.
                    Ratio.rateAtLeast(
                            "MongoBenchmark.mongoFresh", "MongoBenchmark.rawInsertOne", 0.4),
                    // The JDBC store on PostgreSQL against a bare INSERT there (C12): a replay is
                    // one statement; a fresh request two, and the NOTIFY after the commit when
                    // notifications are on (the default).
                    Ratio.rateAtLeast("JdbcBenchmark.jdbcReplay", "JdbcBenchmark.rawInsert", 0.9),
                    Ratio.rateAtLeast("JdbcBenchmark.jdbcFresh", "JdbcBenchmark.rawInsert", 0.45),
                    Ratio.rateAtLeast(
                            "JdbcBenchmark.jdbcFreshQuiet", "JdbcBenchmark.rawInsert", 0.45),
                    // The Redis store against a bare SET on the same server and client: a replay
                    // is one script call to the raw one round trip, a fresh request two.
                    Ratio.rateAtLeast("RedisBenchmark.redisReplay", "RedisBenchmark.rawSet", 0.8),
                    Ratio.rateAtLeast("RedisBenchmark.redisFresh", "RedisBenchmark.rawSet", 0.4));

    private BenchMain() {}

    /**
     * @param args {@code rounds=}, {@code seconds=}, {@code warmup=}, {@code filter=}
     * @throws RunnerException if a benchmark fails
     */
    public static void main(String[] args) throws RunnerException {
        Map<String, String> settings = settings(args);
        int rounds = Integer.parseInt(settings.getOrDefault("rounds", "8"));
        int seconds = Integer.parseInt(settings.getOrDefault("seconds", "1"));
        int warmup = Integer.parseInt(settings.getOrDefault("warmup", "5"));
        Pattern filter = Pattern.compile(settings.getOrDefault("filter", ".*"));
        List<Case> cases =
                CASES.stream().filter(c -> filter.matcher(c.benchmark()).find()).toList();
        if (cases.isEmpty()) {
            throw new IllegalArgumentException("no benchmark matches " + filter);
        }

        Map<Case, List<Sample>> samples = new LinkedHashMap<>();
        for (Case c : cases) {
            samples.put(c, new ArrayList<>());
            Sample first = run(c, warmup, TimeValue.seconds(seconds));
            System.out.printf(Locale.ROOT, "warm     %-44s %12.0f ns/op%n", c, first.nanos());
        }
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get((i + round) % cases.size());
                Sample sample = run(c, 0, TimeValue.seconds(seconds));
                samples.get(c).add(sample);
                System.out.printf(
                        Locale.ROOT,
                        "round %d  %-44s %12.0f ns/op%n",
                        round + 1,
                        c,
                        sample.nanos());
            }
        }
        System.out.println();
        System.out.print(report(samples, rounds));
    }

    private static Map<String, String> settings(String[] args) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = eq < 0 ? "" : arg.substring(0, eq);
            if (!List.of("rounds", "seconds", "warmup", "filter").contains(name)) {
                throw new IllegalArgumentException(
                        "unknown argument " + arg + ": use rounds=, seconds=, warmup=, filter=");
            }
            settings.put(name, arg.substring(eq + 1));
        }
        return settings;
    }

    /** One JMH run of one case: the warmup asked for, then one measured iteration. */
    @SuppressWarnings("rawtypes") // JMH's own signature
    private static Sample run(Case c, int warmupIterations, TimeValue time) throws RunnerException {
        Options options =
                new OptionsBuilder()
                        .include("^" + Pattern.quote(PACKAGE + c.benchmark()) + "$")
                        .forks(0)
                        .threads(c.threads())
                        .warmupIterations(warmupIterations)
                        .warmupTime(time)
                        .measurementIterations(1)
                        .measurementTime(time)
                        // Leave the previous case's garbage (a store of records) out of this one.
                        .shouldDoGC(true)
                        // Bytes allocated per operation: the first thing to look at when a path
                        // costs more than it should.
                        .addProfiler(GCProfiler.class)
                        .verbosity(VerboseMode.SILENT)
                        .shouldFailOnError(true)
                        .build();
        RunResult result = new Runner(options).runSingle();
        Result primary = result.getPrimaryResult();
        if (!primary.getScoreUnit().equals("ns/op")) {
            throw new IllegalStateException(
                    c + " reports " + primary.getScoreUnit() + ": keep Mode.AverageTime in ns");
        }
        Map<String, Result> secondary = result.getSecondaryResults();
        Optional<Double> bytes =
                secondary.entrySet().stream()
                        .filter(e -> e.getKey().endsWith("gc.alloc.rate.norm"))
                        .map(e -> e.getValue().getScore())
                        .findFirst();
        return new Sample(primary.getScore(), bytes);
    }

    static String report(Map<Case, List<Sample>> samples, int rounds) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "idemkit benchmarks: %d interleaved rounds; ns/op = time per operation per"
                                + " thread, mean ± 99.9%% half-width over the rounds%n",
                        rounds));
        out.append(
                String.format(
                        Locale.ROOT,
                        "%-40s %3s %11s %10s %11s %8s%n",
                        "benchmark",
                        "thr",
                        "ns/op",
                        "±",
                        "median",
                        "B/op"));
        for (Map.Entry<Case, List<Sample>> entry : samples.entrySet()) {
            ListStatistics stats = new ListStatistics();
            ListStatistics bytes = new ListStatistics();
            for (Sample s : entry.getValue()) {
                stats.addValue(s.nanos());
                s.bytesPerOp().ifPresent(bytes::addValue);
            }
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%-40s %3d %11.0f %10.0f %11.0f %8s%n",
                            entry.getKey().benchmark(),
                            entry.getKey().threads(),
                            stats.getMean(),
                            stats.getMeanErrorAt(0.999),
                            stats.getPercentile(50),
                            bytes.getN() == 0
                                    ? "-"
                                    : String.format(Locale.ROOT, "%.0f", bytes.getMean())));
        }
        out.append(
                String.format(
                        Locale.ROOT,
                        "%nratios within a round: median [min..max] over the rounds%n"
                                + "%-46s %7s %7s %16s  %s%n",
                        "ratio",
                        "target",
                        "median",
                        "range",
                        "verdict"));
        for (Ratio ratio : RATIOS) {
            for (Case top : samples.keySet()) {
                Case bottom = new Case(ratio.denominator(), top.threads());
                if (top.benchmark().equals(ratio.numerator()) && samples.containsKey(bottom)) {
                    out.append(ratio.line(top, samples.get(top), samples.get(bottom)));
                }
            }
        }
        return out.toString();
    }

    /**
     * One benchmark at one thread count.
     *
     * @param benchmark {@code Class.method}, in this package
     * @param threads the number of benchmark threads
     */
    record Case(String benchmark, int threads) {
        @Override
        public String toString() {
            return benchmark + " x" + threads;
        }
    }

    /**
     * One measured iteration.
     *
     * @param nanos time per operation per thread
     * @param bytesPerOp bytes allocated per operation, when the GC profiler could tell
     */
    record Sample(double nanos, Optional<Double> bytesPerOp) {}

    /**
     * A target on the ratio of two cases within a round, at the same thread count.
     *
     * @param numerator the benchmark on top, as {@code Class.method}
     * @param denominator the benchmark below
     * @param bound the target, or {@code NaN} for a figure without one
     * @param rate whether the ratio is of rates (operations per second, the inverse of the time
     *     ratio) and the target a floor, rather than of costs (time per operation) and a ceiling
     */
    record Ratio(String numerator, String denominator, double bound, boolean rate) {

        static Ratio costAtMost(String numerator, String denominator, double bound) {
            return new Ratio(numerator, denominator, bound, false);
        }

        /** A cost ratio reported as a figure, with no target. */
        static Ratio cost(String numerator, String denominator) {
            return new Ratio(numerator, denominator, Double.NaN, false);
        }

        /** A rate ratio reported as a figure, with no target. */
        static Ratio rate(String numerator, String denominator) {
            return new Ratio(numerator, denominator, Double.NaN, true);
        }

        static Ratio rateAtLeast(String numerator, String denominator, double bound) {
            return new Ratio(numerator, denominator, bound, true);
        }

        String line(Case top, List<Sample> tops, List<Sample> bottoms) {
            ListStatistics ratios = new ListStatistics();
            for (int i = 0; i < Math.min(tops.size(), bottoms.size()); i++) {
                double a = tops.get(i).nanos();
                double b = bottoms.get(i).nanos();
                ratios.addValue(rate ? b / a : a / b);
            }
            double median = ratios.getPercentile(50);
            boolean figure = Double.isNaN(bound);
            boolean met = rate ? median >= bound : median <= bound;
            return String.format(
                    Locale.ROOT,
                    "%-46s %7s %7.2f %16s  %s%n",
                    String.format(
                            Locale.ROOT,
                            "%s %s / %s, %d thr",
                            rate ? "rate" : "cost",
                            method(numerator),
                            method(denominator),
                            top.threads()),
                    figure
                            ? "-"
                            : String.format(Locale.ROOT, "%s %4.2f", rate ? ">=" : "<=", bound),
                    median,
                    String.format(Locale.ROOT, "[%.2f..%.2f]", ratios.getMin(), ratios.getMax()),
                    figure ? "(figure)" : met ? "met" : "MISSED");
        }

        private static String method(String benchmark) {
            return benchmark.substring(benchmark.lastIndexOf('.') + 1);
        }
    }
}
