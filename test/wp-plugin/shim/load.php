<?php
// The WordPress shim, in the order WordPress itself would have these ready before plugins load.
require __DIR__ . '/constants.php';
require __DIR__ . '/hooks.php';
require __DIR__ . '/formatting.php';
require __DIR__ . '/options.php';
require __DIR__ . '/http.php';
require __DIR__ . '/ajax.php';
require __DIR__ . '/site.php';
require __DIR__ . '/plugin-host.php';
