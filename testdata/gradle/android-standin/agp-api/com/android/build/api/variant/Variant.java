package com.android.build.api.variant;

/** AGP 8 (subset). */
public interface Variant extends Component {
}
