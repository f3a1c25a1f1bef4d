package com.github.tracebeat.gradle;

/**
 * One block of {@code tracebeat { variants { release { ... } } }}: what the
 * variant of that name sets differently from the {@code tracebeat} block.
 * An option left unset (null) takes the {@code tracebeat} block's value.
 *
 * <p>A plain class with a name (Gradle's {@code project.container} makes one
 * per block), so it works on Gradle 4.4 and 8.x.
 */
public class VariantSettings {
    private final String name;
    private Boolean enable;
    private Object blackListFile;
    private Object baseMethodMapFile;
    private String mode;
    private Boolean traceAll;
    private Boolean traceEmpty;
    private Boolean traceGetterSetter;
    private Boolean traceSingle;
    private Boolean traceAbstractClasses;

    public VariantSettings(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public Boolean getEnable() {
        return enable;
    }

    public void setEnable(Boolean enable) {
        this.enable = enable;
    }

    public Object getBlackListFile() {
        return blackListFile;
    }

    public void setBlackListFile(Object blackListFile) {
        this.blackListFile = blackListFile;
    }

    public Object getBaseMethodMapFile() {
        return baseMethodMapFile;
    }

    public void setBaseMethodMapFile(Object baseMethodMapFile) {
        this.baseMethodMapFile = baseMethodMapFile;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public Boolean getTraceAll() {
        return traceAll;
    }

    public void setTraceAll(Boolean traceAll) {
        this.traceAll = traceAll;
    }

    public Boolean getTraceEmpty() {
        return traceEmpty;
    }

    public void setTraceEmpty(Boolean traceEmpty) {
        this.traceEmpty = traceEmpty;
    }

    public Boolean getTraceGetterSetter() {
        return traceGetterSetter;
    }

    public void setTraceGetterSetter(Boolean traceGetterSetter) {
        this.traceGetterSetter = traceGetterSetter;
    }

    public Boolean getTraceSingle() {
        return traceSingle;
    }

    public void setTraceSingle(Boolean traceSingle) {
        this.traceSingle = traceSingle;
    }

    public Boolean getTraceAbstractClasses() {
        return traceAbstractClasses;
    }

    public void setTraceAbstractClasses(Boolean traceAbstractClasses) {
        this.traceAbstractClasses = traceAbstractClasses;
    }
}
