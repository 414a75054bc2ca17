import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a server's time went in a JFR recording of one benchmark case (run.sh's {@code JFR_CASE}):
 * the share of execution samples with an idemkit frame on the stack (the bench application's own
 * classes, {@code io.idemkit.bench}, not counted), the idemkit methods those samples are in
 * and packages (inclusive: each sample counts once for every idemkit method, and for every idemkit
 * package, on its stack), the hottest leaf
 * frames overall and in idemkit's samples, the garbage collector's pauses, and the sampled
 * allocations ({@code jdk.ObjectAllocationSample}, by weight): idemkit's share and the idemkit
 * methods nearest to each allocation. Run as {@code java
 * JfrSummary.java recording.jfr [top]}.
 */
public class JfrSummary {

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int samples = 0;
        int withIdemkit = 0;
        Map<String, Integer> idemkitMethods = new HashMap<>();
        Map<String, Integer> idemkitPackages = new HashMap<>();
        Map<String, Integer> leaves = new HashMap<>();
        Map<String, Integer> idemkitLeaves = new HashMap<>();
        Map<String, Integer> leafPackages = new HashMap<>();
        Duration gcPauses = Duration.ZERO;
        int gcs = 0;
        long allocated = 0;
        long allocatedByIdemkit = 0;
        Map<String, Long> allocationSites = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.ObjectAllocationSample") && e.getStackTrace() != null) {
                long weight = e.getLong("weight");
                allocated += weight;
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    String n = name(f);
                    if (n.startsWith("io.idemkit.") && !n.startsWith("io.idemkit.bench.")) {
                        allocatedByIdemkit += weight;
                        allocationSites.merge(n, weight, Long::sum);
                        break;
                    }
                }
                continue;
            }
            if (type.equals("jdk.GCPhasePause")) {
                gcPauses = gcPauses.plus(e.getDuration());
                gcs++;
                continue;
            }
            if (!type.equals("jdk.ExecutionSample") || e.getStackTrace() == null) continue;
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            if (frames.isEmpty()) continue;
            samples++;
            String leaf = name(frames.get(0));
            leaves.merge(leaf, 1, Integer::sum);
            leafPackages.merge(pkg(frames.get(0)), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            Set<String> packages = new HashSet<>();
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (n.startsWith("io.idemkit.") && !n.startsWith("io.idemkit.bench.") && seen.add(n)) {
                    idemkitMethods.merge(n, 1, Integer::sum);
                    // A lambda's hidden class is named Outer$$Lambda$12+0x….123: cut at the '$'.
                    String owner = f.getMethod().getType().getName().split("\\$")[0];
                    String pkg = owner.substring(0, owner.lastIndexOf('.'));
                    if (packages.add(pkg)) {
                        idemkitPackages.merge(pkg, 1, Integer::sum);
                    }
                }
            }
            if (!seen.isEmpty()) {
                withIdemkit++;
                idemkitLeaves.merge(leaf, 1, Integer::sum);
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d execution samples, %d (%.1f %%) with an idemkit frame%n",
                args[0], samples, withIdemkit, pct(withIdemkit, samples));
        System.out.printf(Locale.ROOT, "GC pauses: %d, %d ms in all%n", gcs, gcPauses.toMillis());
        print("idemkit packages (inclusive)", idemkitPackages, samples, top);
        print("idemkit methods (inclusive)", idemkitMethods, samples, top);
        print("leaf frames, all samples", leaves, samples, top);
        print("leaf frames' packages, all samples", leafPackages, samples, top);
        print("leaf frames, samples with an idemkit frame", idemkitLeaves, samples, top);
        System.out.printf(Locale.ROOT, "%nallocation samples: %d MB by weight, %.1f %% under an idemkit frame%n",
                allocated >> 20, allocated == 0 ? 0 : 100.0 * allocatedByIdemkit / allocated);
        long allocatedInAll = allocated;
        System.out.printf("%nnearest idemkit method of an allocation, by weight:%n");
        allocationSites.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(c -> System.out.printf(Locale.ROOT, "  %5.1f %%  %s%n",
                        allocatedInAll == 0 ? 0 : 100.0 * c.getValue() / allocatedInAll, c.getKey()));
    }

    static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    static String pkg(RecordedFrame f) {
        String[] parts = f.getMethod().getType().getName().split("\\.");
        return String.join(".", java.util.Arrays.copyOf(parts, Math.min(3, parts.length - 1)));
    }

    static double pct(int n, int of) {
        return of == 0 ? 0 : 100.0 * n / of;
    }

    static void print(String title, Map<String, Integer> counts, int samples, int top) {
        System.out.printf("%n%s:%n", title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(top)
                .forEach(c -> System.out.printf(Locale.ROOT, "  %5.1f %%  %s%n", pct(c.getValue(), samples), c.getKey()));
    }
}
