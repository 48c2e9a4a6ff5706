# GPUSC_CHECK_SYSTEMC
# -------------------
# Find the Accellera SystemC kernel. Order: --with-systemc=DIR, then $SYSTEMC_HOME, then pkg-config
# `systemc`, then the compiler's default paths (Debian's libsystemc-dev installs there).
# Sets SYSTEMC_CFLAGS and SYSTEMC_LIBS. SystemC headers are included with -isystem so that our
# -Wall -Wextra -Werror does not apply to them.
AC_DEFUN([GPUSC_CHECK_SYSTEMC], [
  AC_ARG_WITH([systemc],
    [AS_HELP_STRING([--with-systemc=DIR], [SystemC installation prefix (default: pkg-config systemc, then SYSTEMC_HOME, then system paths)])],
    [gpusc_systemc_dir=$withval], [gpusc_systemc_dir=])
  AC_ARG_VAR([SYSTEMC_HOME], [SystemC installation prefix, used when --with-systemc is not given])
  SYSTEMC_CFLAGS=
  SYSTEMC_LIBS=
  gpusc_systemc_found=no
  AS_IF([test -z "$gpusc_systemc_dir"],
    [PKG_CHECK_MODULES([SYSTEMC_PC], [systemc >= 2.3],
       [SYSTEMC_CFLAGS=`echo "$SYSTEMC_PC_CFLAGS" | sed 's/-I/-isystem /g'`
        SYSTEMC_LIBS=$SYSTEMC_PC_LIBS
        gpusc_systemc_found=pkg-config],
       [gpusc_systemc_dir=$SYSTEMC_HOME])])
  AS_IF([test "$gpusc_systemc_found" = no && test -n "$gpusc_systemc_dir"],
    [gpusc_systemc_libdir=$gpusc_systemc_dir/lib
     for d in lib-linux64 lib64 lib; do
       AS_IF([test -d "$gpusc_systemc_dir/$d"], [gpusc_systemc_libdir=$gpusc_systemc_dir/$d; break])
     done
     SYSTEMC_CFLAGS="-isystem $gpusc_systemc_dir/include"
     SYSTEMC_LIBS="-L$gpusc_systemc_libdir -Wl,-rpath,$gpusc_systemc_libdir -lsystemc"])
  AS_IF([test -z "$SYSTEMC_LIBS"], [SYSTEMC_LIBS=-lsystemc])
  AC_LANG_PUSH([C++])
  gpusc_save_CXXFLAGS=$CXXFLAGS
  gpusc_save_LIBS=$LIBS
  CXXFLAGS="$CXXFLAGS -std=gnu++17 $SYSTEMC_CFLAGS"
  LIBS="$SYSTEMC_LIBS $LIBS"
  AC_MSG_CHECKING([for the SystemC kernel (systemc.h, libsystemc)])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <systemc>
int sc_main(int, char **) { return 0; }]],
                                  [[sc_core::sc_time t(1, sc_core::SC_NS); return t.value() == 0;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([SystemC was not found. On Debian or Ubuntu install it with
    apt-get install libsystemc-dev
or point configure at an installation with --with-systemc=DIR or SYSTEMC_HOME=DIR.])])
  CXXFLAGS=$gpusc_save_CXXFLAGS
  LIBS=$gpusc_save_LIBS
  AC_LANG_POP([C++])
  AC_SUBST([SYSTEMC_CFLAGS])
  AC_SUBST([SYSTEMC_LIBS])
])
