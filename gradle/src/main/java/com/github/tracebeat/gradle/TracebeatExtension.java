package com.github.tracebeat.gradle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.gradle.api.Action;
import org.gradle.api.NamedDomainObjectContainer;
import org.gradle.api.Project;

/**
 * The {@code tracebeat { }} block. The first three options carry Matrix's
 * {@code trace { enable, baseMethodMapFile, blackListFile }} names so that a
 * migration is a rename of the block.
 *
 * <p>Plain getters and setters (no {@code Property<T>}) so that the same class
 * works on Gradle 4.4 and 8.x. File options take anything {@code project.file()}
 * accepts (a String path, as Matrix users have, or a File).
 */
public class TracebeatExtension {
    static final String MODE_BEAT = "beat";
    static final String MODE_SYSTRACE = "systrace";
    static final String RUNTIME_MATRIX = "matrix";
    static final String RUNTIME_TRACEBEAT = "tracebeat";

    private boolean enable = true;
    private Object baseMethodMapFile;
    private Object blackListFile;
    private Object mappingFile;
    private String mode = MODE_BEAT;
    private String runtime = RUNTIME_MATRIX;
    private final Map<String, String> runtimeSettings = new LinkedHashMap<String, String>();
    private boolean traceAll;
    private boolean traceEmpty;
    private boolean traceGetterSetter;
    private boolean traceSingle;
    private boolean traceAbstractClasses;
    private boolean cache = true;
    private boolean matrixOutputPaths;
    private boolean report = true;
    private boolean strict;
    private String methodMapFileName = "methodMapping.txt";
    private String ignoreMapFileName = "ignoreMethodMapping.txt";
    private String reportFileName = "tracebeat-report.json";
    private Object toolPath;
    private String toolVersion;
    private String beatClass;
    private Integer workers;
    private List<String> extraArgs = new ArrayList<String>();
    private Map<String, Boolean> variants = new LinkedHashMap<String, Boolean>();
    private final NamedDomainObjectContainer<VariantSettings> variantBlocks;

    public TracebeatExtension(Project project) {
        variantBlocks = project.container(VariantSettings.class);
    }

    /** Master switch; per-variant entries in {@link #getVariants()} override it. */
    public boolean isEnable() {
        return enable;
    }

    public void setEnable(boolean enable) {
        this.enable = enable;
    }

    /** A previous methodMapping.txt whose ids are kept (Matrix: baseMethodMapFile). */
    public Object getBaseMethodMapFile() {
        return baseMethodMapFile;
    }

    public void setBaseMethodMapFile(Object baseMethodMapFile) {
        this.baseMethodMapFile = baseMethodMapFile;
    }

    /** Matrix block list: -keepclass / -keeppackage lines (Matrix: blackListFile). */
    public Object getBlackListFile() {
        return blackListFile;
    }

    public void setBlackListFile(Object blackListFile) {
        this.blackListFile = blackListFile;
    }

    /** ProGuard/R8 mapping.txt of the inputs, when they are obfuscated. */
    public Object getMappingFile() {
        return mappingFile;
    }

    public void setMappingFile(Object mappingFile) {
        this.mappingFile = mappingFile;
    }

    /** {@code beat} (AppMethodBeat.i/o) or {@code systrace} (Trace.beginSection/endSection). */
    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    /**
     * Android: what records the calls. {@code matrix} (the default): the app
     * depends on Matrix's matrix-trace-canary itself; {@code tracebeat}: the
     * plugin adds tracebeat's runtime (every thread, the boot clock, Matrix's
     * tracers; docs/android.md) to the app's implementation dependencies.
     */
    public String getRuntime() {
        return runtime;
    }

    public void setRuntime(String runtime) {
        this.runtime = runtime;
    }

    /**
     * Android, with {@code runtime = 'tracebeat'}: settings the runtime jar
     * carries ({@code tracebeat runtime --set KEY=VALUE}), for example
     * {@code runtimeSettings = [mode: 'stream', slow: '500ms']}: an app has
     * no command line to take {@code -Dtracebeat.KEY} from. The binary
     * checks each key and value when it writes the jar.
     */
    public Map<String, String> getRuntimeSettings() {
        return runtimeSettings;
    }

    public void setRuntimeSettings(Map<String, ?> settings) {
        runtimeSettings.clear();
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            runtimeSettings.put(e.getKey(), String.valueOf(e.getValue()));
        }
    }

    /** Trace every method with code, without Matrix's ignore rules. */
    public boolean isTraceAll() {
        return traceAll;
    }

    public void setTraceAll(boolean traceAll) {
        this.traceAll = traceAll;
    }

    /** Also trace methods that only return (--trace-empty). */
    public boolean isTraceEmpty() {
        return traceEmpty;
    }

    public void setTraceEmpty(boolean traceEmpty) {
        this.traceEmpty = traceEmpty;
    }

    /** Also trace getters, setters and trivial constructors (--trace-getter-setter). */
    public boolean isTraceGetterSetter() {
        return traceGetterSetter;
    }

    public void setTraceGetterSetter(boolean traceGetterSetter) {
        this.traceGetterSetter = traceGetterSetter;
    }

    /** Also trace methods that call nothing (--trace-single). */
    public boolean isTraceSingle() {
        return traceSingle;
    }

    public void setTraceSingle(boolean traceSingle) {
        this.traceSingle = traceSingle;
    }

    /** Also trace methods of abstract classes and interfaces (--trace-abstract-classes). */
    public boolean isTraceAbstractClasses() {
        return traceAbstractClasses;
    }

    public void setTraceAbstractClasses(boolean traceAbstractClasses) {
        this.traceAbstractClasses = traceAbstractClasses;
    }

    /**
     * Write the maps and the report where Matrix wrote them,
     * build/outputs/mapping/[variant/], the folder that upload scripts
     * know, instead of build/outputs/tracebeat/[variant/].
     */
    public boolean isMatrixOutputPaths() {
        return matrixOutputPaths;
    }

    public void setMatrixOutputPaths(boolean matrixOutputPaths) {
        this.matrixOutputPaths = matrixOutputPaths;
    }

    /** The folder under build/ where the maps go. */
    String mapsFolder() {
        return matrixOutputPaths ? "outputs/mapping" : "outputs/tracebeat";
    }

    /**
     * Keep what each build made under build/tracebeat-cache and reuse it
     * (--cache): an edit re-instruments the changed classes, and ids stay
     * as they were. On by default.
     */
    public boolean isCache() {
        return cache;
    }

    public void setCache(boolean cache) {
        this.cache = cache;
    }

    /** File name of the method map written under build/outputs/tracebeat/. */
    public String getMethodMapFileName() {
        return methodMapFileName;
    }

    public void setMethodMapFileName(String methodMapFileName) {
        this.methodMapFileName = methodMapFileName;
    }

    /** File name of the ignored-method map written under build/outputs/tracebeat/. */
    public String getIgnoreMapFileName() {
        return ignoreMapFileName;
    }

    public void setIgnoreMapFileName(String ignoreMapFileName) {
        this.ignoreMapFileName = ignoreMapFileName;
    }

    /** File name of the JSON report written under build/outputs/tracebeat/. */
    public String getReportFileName() {
        return reportFileName;
    }

    public void setReportFileName(String reportFileName) {
        this.reportFileName = reportFileName;
    }

    /**
     * Path of the tracebeat binary. Unset: the TRACEBEAT_TOOL environment
     * variable, then {@code tracebeat} on PATH.
     */
    public Object getToolPath() {
        return toolPath;
    }

    public void setToolPath(Object toolPath) {
        this.toolPath = toolPath;
    }

    /**
     * When set, the build cache key uses this version string instead of the
     * binary's content, so machines whose binaries differ byte-wise but are the
     * same release share results. The plugin does not check the claim.
     */
    public String getToolVersion() {
        return toolVersion;
    }

    public void setToolVersion(String toolVersion) {
        this.toolVersion = toolVersion;
    }

    /** Write the JSON report beside the maps (--report); on by default. */
    public boolean isReport() {
        return report;
    }

    public void setReport(boolean report) {
        this.report = report;
    }

    /**
     * --strict: a class that does not parse, a missing base map or block
     * list, a block-list line Matrix would skip, code instrumented before
     * fail the build instead of warning.
     */
    public boolean isStrict() {
        return strict;
    }

    public void setStrict(boolean strict) {
        this.strict = strict;
    }

    /** Runtime class, internal name; unset means the tool's default (Matrix's AppMethodBeat). */
    public String getBeatClass() {
        return beatClass;
    }

    public void setBeatClass(String beatClass) {
        this.beatClass = beatClass;
    }

    /** Worker threads of the tool; unset means one per CPU. Output does not depend on it. */
    public Integer getWorkers() {
        return workers;
    }

    public void setWorkers(Integer workers) {
        this.workers = workers;
    }

    /** More command-line arguments for {@code tracebeat instrument}; they win over the config file. */
    public List<String> getExtraArgs() {
        return extraArgs;
    }

    public void setExtraArgs(List<String> extraArgs) {
        this.extraArgs = new ArrayList<String>(extraArgs);
    }

    /** Per-variant switch, e.g. {@code variants = [debug: true, release: false]}. */
    public Map<String, Boolean> getVariants() {
        return variants;
    }

    public void setVariants(Map<String, Boolean> variants) {
        this.variants = new LinkedHashMap<String, Boolean>(variants);
    }

    /** {@code variant 'release', false} as an alternative to the map. */
    public void variant(String name, boolean enabled) {
        variants.put(name, enabled);
    }

    /**
     * Per-variant settings: {@code variants { release { blackListFile = ...; mode = 'systrace' } }}
     * overrides, for that variant, {@code enable}, {@code blackListFile},
     * {@code baseMethodMapFile}, {@code mode}, {@code traceAll} and the rule
     * switches; what a block leaves unset comes from the {@code tracebeat} block.
     */
    public void variants(Action<? super NamedDomainObjectContainer<VariantSettings>> configure) {
        configure.execute(variantBlocks);
    }

    /** The variant blocks (see {@link #variants(Action)}). */
    public NamedDomainObjectContainer<VariantSettings> getVariantBlocks() {
        return variantBlocks;
    }

    /** The names of every variant the configuration mentions, map entries and blocks. */
    java.util.Set<String> namedVariants() {
        java.util.Set<String> names = new java.util.TreeSet<String>(variants.keySet());
        names.addAll(variantBlocks.getNames());
        return names;
    }

    /** The block of the variant, or null (a plain Java project, or no block). */
    VariantSettings block(String variant) {
        return variant == null ? null : variantBlocks.findByName(variant);
    }

    /**
     * Whether the Android variant {@code name} is instrumented: its map
     * entry, else its block's {@code enable}, else {@link #isEnable()}.
     */
    public boolean enabledFor(String name) {
        Boolean own = variants.get(name);
        if (own != null) {
            return own;
        }
        VariantSettings b = block(name);
        return b != null && b.getEnable() != null ? b.getEnable() : enable;
    }
}
