package sc;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** A runtime-visible annotation: RuntimeVisibleAnnotations. */
@Retention(RetentionPolicy.RUNTIME)
public @interface Seen {}
