package sc;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** A class-file annotation: RuntimeInvisibleAnnotations. */
@Retention(RetentionPolicy.CLASS)
public @interface Kept {}
