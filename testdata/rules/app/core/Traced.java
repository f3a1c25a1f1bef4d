package app.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Methods marked with it are traced (-tracemethodannotation). Class retention: invisible at run time. */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Traced {
}
