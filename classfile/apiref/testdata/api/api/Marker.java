package api;

// An annotation type, named by a descriptor only where it is used.
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface Marker {}
