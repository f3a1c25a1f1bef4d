package api;

// Only in the later jar.
public class Extra {}
