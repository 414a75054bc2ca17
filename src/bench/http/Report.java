import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.function.Function;

/**
 * Reads run.sh's results.tsv and prints, per runtime and store, each case's median throughput (with
 * its range over the rounds) and latencies, then the target ratios, each taken within one round
 * (so each runtime against its own baseline) and reported as the median and range over the rounds;
 * last, the target ratios of every runtime in one table. Run as {@code java Report.java
 * results.tsv}.
 */
public class Report {

    record Row(String runtime, String store, String name, int conns, int round, double rps, double p50, double p99,
            long non2xx, long errors, long runs, double bytesPerRequest) {}

    public static void main(String[] args) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t");
            rows.add(new Row(f[0], f[1], f[2], Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                    Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]),
                    Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
                    f.length > 11 ? Double.parseDouble(f[11]) : -1));
        }
        // Per runtime and store, in the order run.sh ran them.
        Map<String, List<Row>> byStore = new LinkedHashMap<>();
        rows.forEach(r -> byStore.computeIfAbsent(r.runtime() + ", " + r.store(), s -> new ArrayList<>()).add(r));
        String[] names = {"baseline", "fresh", "replay", "slow-fresh", "slow-replay"};
        for (var e : byStore.entrySet()) {
            List<Row> rs = e.getValue();
            System.out.printf("%n### %s store%n%n", e.getKey());
            System.out.println("| case | conns | req/s (median [range]) | p50 ms | p99 ms | bytes allocated per request | non-2xx | handler runs |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            for (int conns : new int[] {1, 16}) {
                for (String name : names) {
                    List<Row> c = rs.stream().filter(r -> r.name().equals(name) && r.conns() == conns).toList();
                    if (c.isEmpty()) continue;
                    double bytes = median(c, Row::bytesPerRequest);
                    System.out.printf(Locale.ROOT, "| %s | %d | %s | %.2f | %.2f | %s | %d | %d |%n", name, conns,
                            stat(c, Row::rps, "%.0f"), median(c, Row::p50) / 1000, median(c, Row::p99) / 1000,
                            bytes < 0 ? "?" : String.format(Locale.ROOT, "%.0f", bytes),
                            c.stream().mapToLong(Row::non2xx).sum() + c.stream().mapToLong(Row::errors).sum(),
                            c.stream().mapToLong(Row::runs).sum());
                }
            }
            System.out.println();
            System.out.println("| ratio (throughput, within a round) | conns | median [range] | target |");
            System.out.println("|---|---|---|---|");
            boolean memory = rs.get(0).store().equals("memory");
            for (int conns : new int[] {1, 16}) {
                line(ratio(rs, "fresh", "baseline", conns, memory ? 0.85 : -1));
                line(ratio(rs, "replay", "baseline", conns, memory ? 1.0 : -1));
                line(ratio(rs, "replay", "fresh", conns, -1));
                line(ratio(rs, "slow-replay", "slow-fresh", conns, 10));
            }
            System.out.println();
            System.out.println("| ratio (p99 latency, within a round) | conns | median [range] | target |");
            System.out.println("|---|---|---|---|");
            for (int conns : new int[] {1, 16}) {
                line(p99Ratio(rs, "fresh", "baseline", conns, memory && conns == 16 ? 2.0 : -1));
                line(p99Ratio(rs, "replay", "baseline", conns, memory && conns == 16 ? 2.0 : -1));
            }
        }
        System.out.printf("%n### The target ratios, every runtime%n%n");
        System.out.println("| runtime, store | ratio (throughput, within a round) | conns | median [range] | target |");
        System.out.println("|---|---|---|---|---|");
        for (var e : byStore.entrySet()) {
            boolean memory = e.getValue().get(0).store().equals("memory");
            for (String[] pair : new String[][] {{"fresh", "baseline"}, {"replay", "baseline"}}) {
                for (int conns : new int[] {1, 16}) {
                    String line = ratio(e.getValue(), pair[0], pair[1], conns,
                            !memory ? -1 : pair[0].equals("fresh") ? 0.85 : 1.0);
                    if (!line.isEmpty()) System.out.println("| " + e.getKey() + " " + line);
                }
                String p99 = p99Ratio(e.getValue(), pair[0], pair[1], 16, memory ? 2.0 : -1);
                if (!p99.isEmpty()) System.out.println("| " + e.getKey() + " " + p99);
            }
        }
    }

    static void line(String row) {
        if (!row.isEmpty()) System.out.println(row);
    }

    /** One table row of a throughput ratio (at least target), or "" when a case is missing. */
    static String ratio(List<Row> rs, String top, String bottom, int conns, double target) {
        return ratio(rs, top, bottom, conns, target, Row::rps, "", "≥");
    }

    /** One table row of a p99 ratio (at most target), or "" when a case is missing. */
    static String p99Ratio(List<Row> rs, String top, String bottom, int conns, double target) {
        return ratio(rs, top, bottom, conns, target, Row::p99, "p99 ", "≤");
    }

    /**
     * The ratio of {@code figure} between two cases, each pair from one round, over the rounds;
     * target negative for none.
     */
    static String ratio(List<Row> rs, String top, String bottom, int conns, double target,
            Function<Row, Double> figure, String label, String bound) {
        List<Double> ratios = new ArrayList<>();
        for (Row t : rs) {
            if (!t.name().equals(top) || t.conns() != conns) continue;
            rs.stream().filter(b -> b.name().equals(bottom) && b.conns() == conns && b.round() == t.round())
                    .findFirst().ifPresent(b -> ratios.add(figure.apply(t) / figure.apply(b)));
        }
        if (ratios.isEmpty()) return "";
        ratios.sort(null);
        double median = median(ratios);
        boolean met = bound.equals("≥") ? median >= target : median <= target;
        String verdict = target < 0 ? "" : String.format(Locale.ROOT, "%s %s — %s", bound, trim(target),
                met ? "met" : "MISSED");
        return String.format(Locale.ROOT, "| %s%s / %s | %d | %.2f [%.2f..%.2f] | %s |", label, top, bottom, conns,
                median, ratios.get(0), ratios.get(ratios.size() - 1), verdict);
    }

    static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String stat(List<Row> c, Function<Row, Double> f, String fmt) {
        List<Double> v = c.stream().map(f).sorted().toList();
        return String.format(Locale.ROOT, fmt + " [" + fmt + ".." + fmt + "]", median(v), v.get(0), v.get(v.size() - 1));
    }

    static double median(List<Row> c, Function<Row, Double> f) {
        return median(c.stream().map(f).sorted().toList());
    }

    static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
