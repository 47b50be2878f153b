<?php
// The plugin API of wp-includes/plugin.php: actions and filters by priority, each callback given
// as many arguments as it accepted when added.

$GLOBALS['wafctl_shim_hooks'] = array();

function add_filter( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	$GLOBALS['wafctl_shim_hooks'][ $hook ][ $priority ][] = array( $callback, $accepted_args );
	return true;
}

function add_action( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	return add_filter( $hook, $callback, $priority, $accepted_args );
}

function has_action( $hook ) {
	return ! empty( $GLOBALS['wafctl_shim_hooks'][ $hook ] );
}

function apply_filters( $hook, $value, ...$args ) {
	if ( empty( $GLOBALS['wafctl_shim_hooks'][ $hook ] ) ) {
		return $value;
	}
	$by_priority = $GLOBALS['wafctl_shim_hooks'][ $hook ];
	ksort( $by_priority );
	foreach ( $by_priority as $callbacks ) {
		foreach ( $callbacks as list( $callback, $accepted ) ) {
			$value = call_user_func_array( $callback, array_slice( array_merge( array( $value ), $args ), 0, $accepted ) );
		}
	}
	return $value;
}

function do_action( $hook, ...$args ) {
	if ( empty( $GLOBALS['wafctl_shim_hooks'][ $hook ] ) ) {
		return;
	}
	$by_priority = $GLOBALS['wafctl_shim_hooks'][ $hook ];
	ksort( $by_priority );
	foreach ( $by_priority as $callbacks ) {
		foreach ( $callbacks as list( $callback, $accepted ) ) {
			call_user_func_array( $callback, array_slice( $args, 0, $accepted ) );
		}
	}
}
